import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodeUser, fmtCreds } from '@nats-io/jwt';
import { createUser, type KeyPair } from '@nats-io/nkeys';
import type { BusAuthority } from './bus-authority';
import { identityUserName, permissionsOf, type BusIdentity } from './bus-identities';

export interface MintUserOptions {
  readonly identity: BusIdentity;
  /** The deployment's subject namespace, applied to the permissions. */
  readonly namespace?: string | undefined;
  /** Tags shown by the server's monitoring, e.g. `workspace:<id>` for a daemon. */
  readonly tags?: readonly string[];
  /** Unix seconds after which the server refuses the JWT; none by default (revocation ends it). */
  readonly expiresAt?: number;
}

/** What signing users of the application account needs. */
export interface UserIssuer {
  readonly appAccountPublicKey: string;
  readonly appSigner: KeyPair;
}

/** The authority as a user issuer. */
export function userIssuerOf(authority: UserIssuer | Pick<BusAuthority, 'appAccount' | 'appSigner'>): UserIssuer {
  return 'appAccountPublicKey' in authority ? authority : { appAccountPublicKey: authority.appAccount.getPublicKey(), appSigner: authority.appSigner };
}

/**
 * A user JWT for a public key someone else holds the seed of: a daemon enrolling makes its key
 * pair locally and sends only the public key.
 */
export function mintUserJwt(authority: UserIssuer | Pick<BusAuthority, 'appAccount' | 'appSigner'>, userPublicKey: string, options: MintUserOptions): Promise<string> {
  const issuer = userIssuerOf(authority);
  return encodeUser(
    identityUserName(options.identity),
    userPublicKey,
    issuer.appSigner,
    {
      ...permissionsOf(options.identity, options.namespace),
      issuer_account: issuer.appAccountPublicKey,
      ...(options.tags && options.tags.length > 0 ? { tags: [...options.tags] } : {}),
    },
    options.expiresAt === undefined ? {} : { exp: options.expiresAt },
  );
}

export interface UserCredentials {
  readonly userPublicKey: string;
  /** The NATS `.creds` text: the user JWT and the user's seed. */
  readonly creds: string;
}

/** A new user key pair and its JWT, as `.creds` text (for services, tests and tools). */
export async function mintUserCredentials(authority: UserIssuer | Pick<BusAuthority, 'appAccount' | 'appSigner'>, options: MintUserOptions): Promise<UserCredentials> {
  const user = createUser();
  const jwt = await mintUserJwt(authority, user.getPublicKey(), options);
  return { userPublicKey: user.getPublicKey(), creds: credsText(jwt, user) };
}

export function credsText(jwt: string, user: KeyPair): string {
  return new TextDecoder().decode(fmtCreds(jwt, user));
}

/** Writes `.creds` text 0600 (its directory 0700): it holds a private seed. */
export function writeCredentialsFile(file: string, creds: string): string {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, creds, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

/**
 * A user of the system account, for pushing account JWTs (revocations) to the servers. Whoever
 * holds it can update any account the operator signed: only the enrollment authority gets one.
 */
export async function mintSystemUserCredentials(authority: Pick<BusAuthority, 'systemAccount'>, name = 'claims-updater'): Promise<UserCredentials> {
  const user = createUser();
  const jwt = await encodeUser(name, user, authority.systemAccount, { pub: { allow: ['$SYS.REQ.CLAIMS.UPDATE', '$SYS.REQ.ACCOUNT.*.CLAIMS.UPDATE'] }, sub: { allow: ['_INBOX.>'] } });
  return { userPublicKey: user.getPublicKey(), creds: credsText(jwt, user) };
}
