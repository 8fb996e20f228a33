import { createCurve, createUser } from '@nats-io/nkeys';
import { credsText } from './user-credentials';

/**
 * The key pairs a daemon makes for itself when it enrolls: a NATS user key (its JWT is signed for
 * the public half) and a curve key task secrets are sealed to. Only the public halves leave it.
 */
export interface DaemonKeys {
  readonly userPublicKey: string;
  readonly curvePublicKey: string;
  /** The `.creds` text for the JWT the gateway signed for `userPublicKey`. */
  credsFor(jwt: string): string;
  /** The curve key's seed, to keep 0600. */
  readonly curveSeed: string;
}

export function createDaemonKeys(): DaemonKeys {
  const user = createUser();
  const curve = createCurve();
  return {
    userPublicKey: user.getPublicKey(),
    curvePublicKey: curve.getPublicKey(),
    credsFor: (jwt) => credsText(jwt, user),
    curveSeed: new TextDecoder().decode(curve.getSeed()),
  };
}
