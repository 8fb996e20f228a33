import { createCurveSeed, curveKeyHolder, isCurvePublicKey, sealToCurveKey } from './sealed-box';

describe('sealed boxes to a curve key', () => {
  it('open only with the recipient seed, to the sealed text', () => {
    const recipient = curveKeyHolder(createCurveSeed());
    const stranger = curveKeyHolder(createCurveSeed());
    const sealed = sealToCurveKey(recipient.publicKey, '{"secret":"value-1"}');

    expect(sealed).not.toContain('value-1');
    expect(recipient.open(sealed)).toBe('{"secret":"value-1"}');
    expect(() => stranger.open(sealed)).toThrow(/does not open/);
  });

  it('refuse an altered box and a recipient that is not a curve key', () => {
    const recipient = curveKeyHolder(createCurveSeed());
    const sealed = sealToCurveKey(recipient.publicKey, 'plain');
    const last = sealed.at(-2) === 'A' ? 'B' : 'A';
    const altered = `${sealed.slice(0, -2)}${last}${sealed.slice(-1)}`;

    expect(() => recipient.open(altered)).toThrow();
    expect(() => recipient.open('plain text')).toThrow(/not a sealed box/);
    expect(() => sealToCurveKey('UABC', 'plain')).toThrow(/not an nkeys curve public key/);
    expect(isCurvePublicKey(recipient.publicKey)).toBe(true);
  });
});
