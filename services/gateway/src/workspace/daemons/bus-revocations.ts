import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import { appAccountJwt, connectMessaging, pushAccountClaims, type EnrollmentAuthority, type MessagingConnection } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG, GATEWAY_LOGGER } from '../../gateway.injection-keys';

/**
 * Tells NATS who is revoked: the application account JWT, re-issued with every revoked daemon's
 * user key, pushed over a system-account connection. NATS then disconnects those users at once
 * and refuses them. The list is whole each time, so a push repairs any earlier one that was lost.
 */
@Injectable()
export class BusRevocations implements BeforeApplicationShutdown {
  private system: Promise<MessagingConnection> | undefined;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {}

  async push(authority: EnrollmentAuthority, revoked: Readonly<Record<string, number>>): Promise<void> {
    const connection = await this.systemConnection(authority);
    await pushAccountClaims(connection, await appAccountJwt(authority, revoked));
    this.logger.info({ event: 'bus_revocations_pushed', revoked: Object.keys(revoked).length }, 'revocations pushed to NATS');
  }

  async beforeApplicationShutdown(): Promise<void> {
    const connection = await this.system?.catch(() => undefined);
    await connection?.close();
  }

  private systemConnection(authority: EnrollmentAuthority): Promise<MessagingConnection> {
    this.system ??= connectMessaging({
      url: this.config.NATS_URL.split(','),
      name: 'gateway-revocations',
      credentials: authority.systemUserCreds,
      // The system user may only push claims: no JetStream, and its replies come to any inbox of its own account.
      jetStreamAccess: 'publish',
    }).catch((error: unknown) => {
      this.system = undefined;
      throw error;
    });
    return this.system;
  }
}
