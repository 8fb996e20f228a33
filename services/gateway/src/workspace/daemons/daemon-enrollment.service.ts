import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { isReservedDaemonId } from '@switchyard/contracts';
import { loadEnrollmentAuthority, mintUserJwt, type EnrollmentAuthority } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG, GATEWAY_LOGGER } from '../../gateway.injection-keys';
import { ApiError } from '../common/api-error';
import { BusRevocations } from './bus-revocations';
import type { CreatedEnrollment, DaemonView, EnrollDaemonInput, EnrolledDaemon } from './daemon.schemas';
import { DaemonsRepository } from './daemons.repository';

/** Random, so no one can choose or guess another's id, and never a name a service uses. */
function newDaemonId(): string {
  const id = `daemon-${randomBytes(10).toString('hex')}`;
  return isReservedDaemonId(id) ? newDaemonId() : id;
}

/**
 * Enrollment and revocation of daemons. A daemon makes its key pairs itself and sends only the
 * public keys with a one-time token; it gets a random id and a NATS user JWT bound to that id
 * (its grant names the id in every subject) and tagged with its workspace. Revoking records the
 * time and pushes the revocation list to NATS, which disconnects the daemon at once.
 */
@Injectable()
export class DaemonEnrollmentService implements OnApplicationBootstrap {
  private readonly authority: EnrollmentAuthority | undefined;

  constructor(
    private readonly daemons: DaemonsRepository,
    private readonly revocations: BusRevocations,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(GATEWAY_LOGGER) private readonly logger: JsonLogger,
  ) {
    // Read at boot: a configured file that cannot be read stops the gateway, with the reason.
    this.authority = config.GATEWAY_ENROLLMENT_AUTHORITY_FILE ? loadEnrollmentAuthority(config.GATEWAY_ENROLLMENT_AUTHORITY_FILE) : undefined;
  }

  /** NATS may have restarted from its preloaded account JWT: the revocations are pushed again. */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.authority) return;
    try {
      await this.revocations.push(this.authority, await this.daemons.revokedUserKeys());
    } catch (error) {
      this.logger.error({ event: 'bus_revocations_not_pushed', err: error }, 'revocations could not be pushed to NATS at boot; the next revocation pushes them again');
    }
  }

  createEnrollment(workspaceId: string): Promise<CreatedEnrollment> {
    this.requireAuthority();
    return this.daemons.createEnrollment({ workspaceId, ttlMs: this.config.GATEWAY_ENROLLMENT_TOKEN_TTL_MS }).then((created) => ({ ...created, workspaceId }));
  }

  /** Undefined when the token is unknown, expired or used (the edge answers 401 and counts it). */
  async enroll(input: EnrollDaemonInput): Promise<EnrolledDaemon | undefined> {
    const authority = this.requireAuthority();
    const daemonId = newDaemonId();
    const daemon = await this.daemons.enroll({ token: input.token, daemonId, name: input.name, userPublicKey: input.userPublicKey, curvePublicKey: input.curvePublicKey });
    if (!daemon) return undefined;
    const jwt = await mintUserJwt(authority, input.userPublicKey, {
      // The workspace in the grant lets the daemon watch that workspace's runtime profiles, no other's.
      identity: { kind: 'daemon', daemonId, workspaceId: daemon.workspaceId },
      namespace: this.config.SWITCHYARD_NAMESPACE,
      tags: [`workspace:${daemon.workspaceId}`],
    });
    this.logger.info({ event: 'daemon_enrolled', daemonId, workspaceId: daemon.workspaceId, name: daemon.name }, `daemon ${daemonId} enrolled`);
    return { daemonId, workspaceId: daemon.workspaceId, jwt };
  }

  list(workspaceId: string): Promise<DaemonView[]> {
    return this.daemons.list(workspaceId);
  }

  /** Undefined when the workspace has no such daemon; a revocation NATS did not take answers 503 (repeat it). */
  async revoke(workspaceId: string, daemonId: string): Promise<DaemonView | undefined> {
    const authority = this.requireAuthority();
    const daemon = await this.daemons.revoke(workspaceId, daemonId);
    if (!daemon) return undefined;
    try {
      await this.revocations.push(authority, await this.daemons.revokedUserKeys());
    } catch (error) {
      throw new ApiError('enrollment_unavailable', `daemon ${daemonId} is revoked here but NATS did not take the revocation (${(error as Error).message}); repeat the request`);
    }
    this.logger.info({ event: 'daemon_revoked', daemonId, workspaceId }, `daemon ${daemonId} revoked`);
    return daemon;
  }

  private requireAuthority(): EnrollmentAuthority {
    if (!this.authority) throw new ApiError('enrollment_unavailable', 'this gateway has no enrollment authority (GATEWAY_ENROLLMENT_AUTHORITY_FILE)');
    return this.authority;
  }
}
