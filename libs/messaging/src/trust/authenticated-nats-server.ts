import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startNatsServer, type NatsServerProcess } from '../nats-server/nats-server.process';
import type { RevokedUsers } from './account-claims';
import type { BusAuthority } from './bus-authority';
import { renderNatsServerConfig, type NatsServerClusterMembership, type NatsServerTls } from './nats-server.config';

export interface StartAuthenticatedNatsServerOptions {
  /** Holds the config, the JetStream store and the resolver's account JWTs (made 0700). */
  readonly directory: string;
  readonly authority: BusAuthority;
  readonly host?: string;
  /** 0 or absent lets the server pick a free port. */
  readonly port?: number;
  readonly tls?: NatsServerTls;
  readonly revoked?: RevokedUsers;
  readonly ownProcessGroup?: boolean;
  readonly cluster?: NatsServerClusterMembership;
  readonly monitorPort?: number;
}

/** A private nats-server in operator mode: no connection without a user JWT of the authority. */
export async function startAuthenticatedNatsServer(options: StartAuthenticatedNatsServerOptions): Promise<NatsServerProcess> {
  const { directory } = options;
  for (const folder of [directory, path.join(directory, 'jetstream'), path.join(directory, 'resolver')]) {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    chmodSync(folder, 0o700);
  }
  const config = await renderNatsServerConfig(options.authority, {
    host: options.host ?? '127.0.0.1',
    port: options.port && options.port > 0 ? options.port : -1,
    jetStreamDirectory: path.join(directory, 'jetstream'),
    resolverDirectory: path.join(directory, 'resolver'),
    ...(options.tls ? { tls: options.tls } : {}),
    ...(options.revoked ? { revoked: options.revoked } : {}),
    ...(options.cluster ? { cluster: options.cluster } : {}),
    ...(options.monitorPort !== undefined ? { monitorPort: options.monitorPort } : {}),
  });
  const configFile = path.join(directory, 'nats-server.conf');
  writeFileSync(configFile, config, { mode: 0o600 });
  chmodSync(configFile, 0o600);
  return startNatsServer({ storeDirectory: path.join(directory, 'jetstream'), configFile, ...(options.ownProcessGroup ? { ownProcessGroup: true } : {}) });
}
