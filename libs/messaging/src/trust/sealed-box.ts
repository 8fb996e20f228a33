import { createCurve, fromCurveSeed, type KeyPair } from '@nats-io/nkeys';

const SEALED_BOX_PREFIX = 'xkv1-box:';
const CURVE_PUBLIC_KEY = /^X[A-Z2-7]{55}$/;

/** An nkeys curve public key (`X...`), the form a daemon announces the key its secrets are sealed to. */
export function isCurvePublicKey(value: string): boolean {
  return CURVE_PUBLIC_KEY.test(value);
}

/**
 * Seals `plain` to one recipient's curve key (X25519 + XSalsa20-Poly1305, nkeys' `seal`), from a
 * key made for this message only: the text carries its public half, so only the recipient's seed
 * opens it and nothing else needs sharing.
 */
export function sealToCurveKey(recipientPublicKey: string, plain: string): string {
  if (!isCurvePublicKey(recipientPublicKey)) throw new Error('the recipient is not an nkeys curve public key');
  const sender = createCurve();
  const box = sender.seal(new TextEncoder().encode(plain), recipientPublicKey);
  return `${SEALED_BOX_PREFIX}${sender.getPublicKey()}:${Buffer.from(box).toString('base64url')}`;
}

/** The holder of a curve seed: its public key, and the opening of boxes sealed to it. */
export interface CurveKeyHolder {
  readonly publicKey: string;
  /** Throws when the box is not for this key or was altered. */
  open(sealed: string): string;
}

export function curveKeyHolder(seed: string): CurveKeyHolder {
  const pair: KeyPair = fromCurveSeed(new TextEncoder().encode(seed.trim()));
  return {
    publicKey: pair.getPublicKey(),
    open(sealed) {
      if (!sealed.startsWith(SEALED_BOX_PREFIX)) throw new Error('not a sealed box');
      const [senderPublicKey, box] = sealed.slice(SEALED_BOX_PREFIX.length).split(':');
      if (!senderPublicKey || !box || !isCurvePublicKey(senderPublicKey)) throw new Error('a sealed box without its sender key');
      const opened = pair.open(Buffer.from(box, 'base64url'), senderPublicKey);
      if (opened === null) throw new Error('the sealed box does not open with this key (another recipient, or altered)');
      return new TextDecoder().decode(opened);
    },
  };
}

/** A new curve seed, for a holder that keeps it (0600) across restarts. */
export function createCurveSeed(): string {
  return new TextDecoder().decode(createCurve().getSeed());
}
