import { encodeAccount, encodeOperator, type OperatorLimits } from '@nats-io/jwt';
import type { KeyPair } from '@nats-io/nkeys';
import type { BusAuthority } from './bus-authority';

export const OPERATOR_NAME = 'switchyard';
export const SYSTEM_ACCOUNT_NAME = 'SYS';
export const APP_ACCOUNT_NAME = 'SWITCHYARD';

/** User public key -> unix seconds: JWTs of that user issued at or before it are refused. */
export type RevokedUsers = Readonly<Record<string, number>>;

// An account JWT without limits allows no connection at all; these lift the core limits and, for
// the application account, enable JetStream (stream sizes are bounded by the stream definitions).
const UNLIMITED_CORE: OperatorLimits = { subs: -1, data: -1, payload: -1, imports: -1, exports: -1, wildcards: true, conn: -1, leaf: -1 };
const UNLIMITED_JETSTREAM: OperatorLimits = { mem_storage: -1, disk_storage: -1, streams: -1, consumer: -1 };

export function operatorJwt(authority: BusAuthority): Promise<string> {
  return encodeOperator(OPERATOR_NAME, authority.operator, {
    signing_keys: [authority.operatorSigner.getPublicKey()],
    system_account: authority.systemAccount.getPublicKey(),
  });
}

export function systemAccountJwt(authority: Pick<BusAuthority, 'systemAccount' | 'operatorSigner'>): Promise<string> {
  return encodeAccount(SYSTEM_ACCOUNT_NAME, authority.systemAccount, { limits: UNLIMITED_CORE }, { signer: authority.operatorSigner });
}

/** What re-issuing the application account needs: its public keys and the operator's signing key. */
export interface AccountIssuer {
  readonly appAccountPublicKey: string;
  readonly appSignerPublicKey: string;
  readonly operatorSigner: KeyPair;
}

export function accountIssuerOf(authority: Pick<BusAuthority, 'appAccount' | 'appSigner' | 'operatorSigner'>): AccountIssuer {
  return { appAccountPublicKey: authority.appAccount.getPublicKey(), appSignerPublicKey: authority.appSigner.getPublicKey(), operatorSigner: authority.operatorSigner };
}

/**
 * The application account's JWT. It is re-issued whole on every revocation, so everything in it
 * comes from the issuer and the revocation list: the same inputs give the same claims.
 */
export function appAccountJwt(issuer: AccountIssuer, revoked: RevokedUsers = {}): Promise<string> {
  return encodeAccount(
    APP_ACCOUNT_NAME,
    issuer.appAccountPublicKey,
    {
      limits: { ...UNLIMITED_CORE, ...UNLIMITED_JETSTREAM },
      signing_keys: [issuer.appSignerPublicKey],
      revocations: { ...revoked },
    },
    { signer: issuer.operatorSigner },
  );
}
