import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  loadOrCreateBusAuthority,
  mintUserCredentials,
  NatsServerMissingError,
  SERVICE_IDENTITIES,
  startAuthenticatedNatsServer,
  writeCredentialsFile,
  type BusIdentity,
} from '@switchyard/messaging';
import type { LocalStackConfig } from './local-stack.config';

/** Something the stack started and stops on the way out, last started first. */
export interface Resource {
  readonly label: string;
  stop(): Promise<void>;
}

export interface LocalBus {
  readonly url: string;
  readonly privateServer: boolean;
  /** The environment that lets one of the stack's processes connect as itself. */
  environmentOf(processName: string): Promise<NodeJS.ProcessEnv>;
}

/**
 * The stack's NATS in operator mode: the authority is kept (0700/0600) under the home, a private
 * server trusts it unless NATS_URL names one that does, and each process gets a user of its own
 * with its own grant, so nothing connects without credentials and a daemon reaches only its subjects.
 */
export async function bootstrapLocalBus(config: LocalStackConfig, resources: Resource[]): Promise<LocalBus> {
  const authority = loadOrCreateBusAuthority(config.busAuthorityDirectory);
  let url = config.NATS_URL;
  if (!url) {
    try {
      const server = await startAuthenticatedNatsServer({ directory: path.join(config.homeDirectory, 'nats'), authority, ownProcessGroup: true });
      resources.push({ label: 'nats-server', stop: () => server.stop() });
      url = server.url;
    } catch (error) {
      if (error instanceof NatsServerMissingError) throw new Error(error.message);
      throw error;
    }
  }
  const credentialsDirectory = path.join(config.busAuthorityDirectory, 'credentials');
  const daemonId = localDaemonId(config);
  return {
    url,
    privateServer: !config.NATS_URL,
    async environmentOf(processName) {
      const identity = identityOf(processName, daemonId);
      const { creds } = await mintUserCredentials(authority, { identity, namespace: config.SWITCHYARD_NAMESPACE });
      const file = writeCredentialsFile(path.join(credentialsDirectory, `${processName}.creds`), creds);
      return { NATS_CREDENTIALS_FILE: file, ...(identity.kind === 'daemon' ? { DAEMON_ID: identity.daemonId } : {}) };
    },
  };
}

function identityOf(processName: string, daemonId: string): BusIdentity {
  if (processName === 'daemon') return { kind: 'daemon', daemonId };
  if (!(SERVICE_IDENTITIES as readonly string[]).includes(processName)) throw new Error(`${processName} has no bus identity`);
  return { kind: 'service', name: processName as (typeof SERVICE_IDENTITIES)[number] };
}

/** The local daemon's id: random on first start, then kept, never the host name. */
function localDaemonId(config: LocalStackConfig): string {
  if (process.env['DAEMON_ID']) return process.env['DAEMON_ID'];
  const file = path.join(config.homeDirectory, 'daemon-id');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const id = `daemon-${randomBytes(8).toString('hex')}`;
  writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}
