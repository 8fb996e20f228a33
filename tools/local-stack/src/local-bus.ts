import path from 'node:path';
import {
  enrollmentAuthorityOf,
  loadOrCreateBusAuthority,
  mintUserCredentials,
  NatsServerMissingError,
  saveEnrollmentAuthority,
  SERVICE_IDENTITIES,
  startAuthenticatedNatsServer,
  writeCredentialsFile,
  type ServiceIdentityName,
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
 * server trusts it unless NATS_URL names one that does, and each service gets a user of its own
 * with its own grant, so nothing connects without credentials. The daemon enrolls through the
 * gateway (which gets the part of the authority that signs daemons and their revocations) and
 * reaches only its own subjects.
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
  const enrollmentAuthorityFile = saveEnrollmentAuthority(path.join(config.busAuthorityDirectory, 'enrollment-authority.json'), await enrollmentAuthorityOf(authority));
  return {
    url,
    privateServer: !config.NATS_URL,
    async environmentOf(processName) {
      if (processName === 'daemon') return {};
      if (!(SERVICE_IDENTITIES as readonly string[]).includes(processName)) throw new Error(`${processName} has no bus identity`);
      const name = processName as ServiceIdentityName;
      const { creds } = await mintUserCredentials(authority, { identity: { kind: 'service', name }, namespace: config.SWITCHYARD_NAMESPACE });
      const file = writeCredentialsFile(path.join(credentialsDirectory, `${name}.creds`), creds);
      return { NATS_CREDENTIALS_FILE: file, ...(name === 'gateway' ? { GATEWAY_ENROLLMENT_AUTHORITY_FILE: enrollmentAuthorityFile } : {}) };
    },
  };
}
