import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fromSeed, type KeyPair } from '@nats-io/nkeys';
import type { AccountIssuer } from './account-claims';
import type { BusAuthority } from './bus-authority';
import { BusTrustError } from './bus-trust.error';
import { mintSystemUserCredentials, type UserIssuer } from './user-credentials';

/**
 * What the enrolling service (the gateway) holds of the bus authority, and no more: it signs
 * daemon users (application signing key), re-issues the application account with its revocation
 * list (operator signing key) and pushes it to the servers (a system-account user). It never holds
 * the operator's or the accounts' identity keys.
 */
export interface EnrollmentAuthority extends UserIssuer, AccountIssuer {
  /** `.creds` of a system-account user allowed only to push account JWTs. */
  readonly systemUserCreds: string;
}

interface EnrollmentAuthorityFile {
  readonly version: 1;
  readonly appAccountPublicKey: string;
  readonly appSigner: string;
  readonly operatorSigner: string;
  readonly systemUserCreds: string;
}

const text = (keyPair: KeyPair): string => new TextDecoder().decode(keyPair.getSeed());

export async function enrollmentAuthorityOf(authority: BusAuthority): Promise<EnrollmentAuthority> {
  return {
    appAccountPublicKey: authority.appAccount.getPublicKey(),
    appSignerPublicKey: authority.appSigner.getPublicKey(),
    appSigner: authority.appSigner,
    operatorSigner: authority.operatorSigner,
    systemUserCreds: (await mintSystemUserCredentials(authority)).creds,
  };
}

/** Writes the enrollment authority 0600 (its directory 0700). */
export function saveEnrollmentAuthority(file: string, authority: EnrollmentAuthority): string {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const content: EnrollmentAuthorityFile = {
    version: 1,
    appAccountPublicKey: authority.appAccountPublicKey,
    appSigner: text(authority.appSigner),
    operatorSigner: text(authority.operatorSigner),
    systemUserCreds: authority.systemUserCreds,
  };
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

export function loadEnrollmentAuthority(file: string): EnrollmentAuthority {
  let content: Partial<EnrollmentAuthorityFile>;
  try {
    content = JSON.parse(readFileSync(file, 'utf8')) as Partial<EnrollmentAuthorityFile>;
  } catch (error) {
    throw new BusTrustError(`cannot read the enrollment authority ${file}: ${(error as Error).message}`);
  }
  const seed = (field: 'appSigner' | 'operatorSigner', prefix: string): KeyPair => {
    const value = content[field];
    if (typeof value !== 'string' || !value.startsWith(prefix)) throw new BusTrustError(`enrollment authority ${file}: ${field} is not a ${prefix} seed`);
    return fromSeed(new TextEncoder().encode(value));
  };
  if (typeof content.appAccountPublicKey !== 'string' || !content.appAccountPublicKey.startsWith('A')) throw new BusTrustError(`enrollment authority ${file}: appAccountPublicKey is missing`);
  if (typeof content.systemUserCreds !== 'string' || !content.systemUserCreds.includes('NATS USER JWT')) throw new BusTrustError(`enrollment authority ${file}: systemUserCreds is missing`);
  const appSigner = seed('appSigner', 'SA');
  return {
    appAccountPublicKey: content.appAccountPublicKey,
    appSigner,
    appSignerPublicKey: appSigner.getPublicKey(),
    operatorSigner: seed('operatorSigner', 'SO'),
    systemUserCreds: content.systemUserCreds,
  };
}
