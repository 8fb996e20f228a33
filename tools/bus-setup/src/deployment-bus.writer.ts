import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  BUS_AUTHORITY_FILE,
  enrollmentAuthorityOf,
  loadOrCreateBusAuthority,
  mintUserCredentials,
  renderNatsServerConfig,
  saveEnrollmentAuthority,
  SERVICE_IDENTITIES,
  writeCredentialsFile,
  type NatsServerTls,
  type ServiceIdentityName,
} from '@switchyard/messaging';
import { PRIVATE_FILE_MODE, preparePrivateDirectory } from '@switchyard/service-kit';
import { natsOperatorInclude, sameApartFromJwts } from './nats-operator.include';

/** What the server config says, in the paths of the machine or container NATS runs in. */
export interface DeploymentServerOptions {
  readonly host: string;
  readonly port: number;
  readonly jetStreamDirectory: string;
  readonly resolverDirectory: string;
  readonly tls?: NatsServerTls;
}

export interface DeploymentBusOptions {
  /** Gets the server configs, each service's `.creds` and the gateway's enrollment authority. */
  readonly outDirectory: string;
  /** Keeps `authority.json`; never part of what a deployment mounts. */
  readonly authorityDirectory: string;
  /** The deployment's SWITCHYARD_NAMESPACE, applied to the services' grants. */
  readonly namespace?: string | undefined;
  readonly server: DeploymentServerOptions;
}

/** The files of the out directory, by role (also the keys of a Kubernetes Secret made from it). */
export const DEPLOYMENT_FILES = {
  serverConfig: 'nats-server.conf',
  operatorInclude: 'nats-operator.conf',
  enrollmentAuthority: 'enrollment-authority.json',
  credentialsOf: (service: ServiceIdentityName): string => `${service}.creds`,
} as const;

/**
 * `created` and `reused` (the authority), `kept` (a server config whose settings did not change),
 * `updated` (one whose settings did), `written` (derived again on every run).
 */
export type FileOutcome = 'created' | 'reused' | 'kept' | 'updated' | 'written';

export interface WrittenFile {
  readonly file: string;
  readonly outcome: FileOutcome;
}

/**
 * Everything a deployment's bus needs, from one authority: created on first use and reused after,
 * never overwritten. Each run mints the services' users and the enrollment authority again (as
 * `npm start` does at every start; earlier ones stay valid). A server config is rewritten only
 * when its settings changed: see `sameApartFromJwts`.
 */
export async function writeDeploymentBus(options: DeploymentBusOptions): Promise<WrittenFile[]> {
  const authorityFile = path.join(options.authorityDirectory, BUS_AUTHORITY_FILE);
  const authorityExisted = existsSync(authorityFile);
  const authority = loadOrCreateBusAuthority(options.authorityDirectory);
  const written: WrittenFile[] = [{ file: authorityFile, outcome: authorityExisted ? 'reused' : 'created' }];
  const out = preparePrivateDirectory(options.outDirectory);

  const serverConfig = await renderNatsServerConfig(authority, { ...options.server });
  written.push(writeServerConfig(path.join(out, DEPLOYMENT_FILES.serverConfig), serverConfig));
  written.push(writeServerConfig(path.join(out, DEPLOYMENT_FILES.operatorInclude), natsOperatorInclude(serverConfig)));

  for (const name of SERVICE_IDENTITIES) {
    const { creds } = await mintUserCredentials(authority, { identity: { kind: 'service', name }, namespace: options.namespace });
    written.push({ file: writeCredentialsFile(path.join(out, DEPLOYMENT_FILES.credentialsOf(name)), creds), outcome: 'written' });
  }
  const enrollmentAuthority = saveEnrollmentAuthority(path.join(out, DEPLOYMENT_FILES.enrollmentAuthority), await enrollmentAuthorityOf(authority));
  written.push({ file: enrollmentAuthority, outcome: 'written' });
  return written;
}

function writeServerConfig(file: string, content: string): WrittenFile {
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (existing !== undefined && sameApartFromJwts(existing, content)) return { file, outcome: 'kept' };
  writeFileSync(file, content, { mode: PRIVATE_FILE_MODE });
  chmodSync(file, PRIVATE_FILE_MODE);
  return { file, outcome: existing === undefined ? 'created' : 'updated' };
}
