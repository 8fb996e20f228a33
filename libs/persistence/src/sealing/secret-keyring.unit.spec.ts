import { generateSecretKey, parseSecretKeys, secretKeyring, SecretUnreadableError } from './secret-keyring';

describe('secret keyring', () => {
  const oldKey = generateSecretKey();
  const newKey = generateSecretKey();

  it('seals so that only the ring opens it, for the same purpose only', () => {
    const ring = secretKeyring(parseSecretKeys(oldKey));
    const sealed = ring.seal('agent env', 'sk-live-123');

    expect(sealed).not.toContain('sk-live-123');
    expect(ring.open('agent env', sealed)).toBe('sk-live-123');
    expect(() => ring.open('task secrets', sealed)).toThrow(SecretUnreadableError);
    expect(() => secretKeyring(parseSecretKeys(newKey)).open('agent env', sealed)).toThrow(/not configured/);
  });

  it('rotates: the new first key seals, the old one still opens, and old values ask to be sealed again', () => {
    const before = secretKeyring(parseSecretKeys(oldKey)).seal('agent env', 'value');
    const rotated = secretKeyring(parseSecretKeys(`${newKey},${oldKey}`));

    expect(rotated.open('agent env', before)).toBe('value');
    expect(rotated.needsResealing(before)).toBe(true);
    expect(rotated.needsResealing('clear value')).toBe(true);
    expect(rotated.needsResealing(rotated.seal('agent env', 'value'))).toBe(false);
  });

  it('refuses keys that are not 32 bytes of base64url', () => {
    expect(() => parseSecretKeys('short')).toThrow(/not 32 bytes/);
    expect(() => parseSecretKeys(' , ')).toThrow(/no key/);
  });
});
