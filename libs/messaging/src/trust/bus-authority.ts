import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createAccount, createOperator, fromSeed, type KeyPair } from '@nats-io/nkeys';
import { BusTrustError } from './bus-trust.error';

/**
 * The keys behind a Switchyard bus in NATS's decentralized (operator) mode. The operator's identity
 * key only signs the operator JWT, once; its signing key signs account JWTs (and so revocations).
 * The system account carries the server's own traffic (claims updates). The application account
 * holds every stream; its signing key signs every user (service and daemon) JWT.
 */
export interface BusAuthority {
  readonly operator: KeyPair;
  readonly operatorSigner: KeyPair;
  readonly systemAccount: KeyPair;
  readonly appAccount: KeyPair;
  readonly appSigner: KeyPair;
}

/** The file an authority is kept in, inside its directory. */
export const BUS_AUTHORITY_FILE = 'authority.json';

interface AuthorityFile {
  readonly version: 1;
  readonly operator: string;
  readonly operatorSigner: string;
  readonly systemAccount: string;
  readonly appAccount: string;
  readonly appSigner: string;
}

export function createBusAuthority(): BusAuthority {
  return {
    operator: createOperator(),
    operatorSigner: createOperator(),
    systemAccount: createAccount(),
    appAccount: createAccount(),
    appSigner: createAccount(),
  };
}

/** Writes the authority's seeds to `<directory>/authority.json` (directory 0700, file 0600). */
export function saveBusAuthority(directory: string, authority: BusAuthority): string {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  chmodSync(directory, 0o700);
  const file = path.join(directory, BUS_AUTHORITY_FILE);
  const seed = (keyPair: KeyPair): string => new TextDecoder().decode(keyPair.getSeed());
  const content: AuthorityFile = {
    version: 1,
    operator: seed(authority.operator),
    operatorSigner: seed(authority.operatorSigner),
    systemAccount: seed(authority.systemAccount),
    appAccount: seed(authority.appAccount),
    appSigner: seed(authority.appSigner),
  };
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

export function loadBusAuthority(directory: string): BusAuthority {
  const file = path.join(directory, BUS_AUTHORITY_FILE);
  let content: Partial<AuthorityFile>;
  try {
    content = JSON.parse(readFileSync(file, 'utf8')) as Partial<AuthorityFile>;
  } catch (error) {
    throw new BusTrustError(`cannot read the bus authority ${file}: ${(error as Error).message}`);
  }
  const key = (field: keyof Omit<AuthorityFile, 'version'>, prefix: string): KeyPair => {
    const value = content[field];
    if (typeof value !== 'string' || !value.startsWith(prefix)) throw new BusTrustError(`bus authority ${file}: ${field} is not a ${prefix} seed`);
    return fromSeed(new TextEncoder().encode(value));
  };
  return {
    operator: key('operator', 'SO'),
    operatorSigner: key('operatorSigner', 'SO'),
    systemAccount: key('systemAccount', 'SA'),
    appAccount: key('appAccount', 'SA'),
    appSigner: key('appSigner', 'SA'),
  };
}

/** The authority kept in `directory`, created there on first use. */
export function loadOrCreateBusAuthority(directory: string): BusAuthority {
  if (existsSync(path.join(directory, BUS_AUTHORITY_FILE))) return loadBusAuthority(directory);
  const authority = createBusAuthority();
  saveBusAuthority(directory, authority);
  return authority;
}
