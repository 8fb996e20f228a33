import { REPLACEMENT_CHARACTER, cleanText, decodeUtf8Lossy, sliceWellFormed } from './clean-text';

describe('cleanText', () => {
  it('removes NUL bytes', () => {
    expect(cleanText('a\u0000b\u0000\u0000c')).toBe('abc');
  });

  it('replaces lone surrogates and keeps valid pairs', () => {
    const emoji = '\u{1F600}';
    expect(cleanText(`x\uD800y\uDC00z${emoji}\uD83D`)).toBe(`x${REPLACEMENT_CHARACTER}y${REPLACEMENT_CHARACTER}z${emoji}${REPLACEMENT_CHARACTER}`);
  });

  it('returns clean text unchanged', () => {
    const text = 'plain ascii, accents éàü, CJK 漢字, emoji \u{1F680}, tabs\tand\nnewlines';
    expect(cleanText(text)).toBe(text);
  });

  it('gives a string whose UTF-8 round trip is lossless', () => {
    const cleaned = cleanText('a\uDFFFb\u0000\uD800');
    expect(Buffer.from(cleaned, 'utf8').toString('utf8')).toBe(cleaned);
  });
});

describe('decodeUtf8Lossy', () => {
  it('replaces invalid sequences with U+FFFD and drops NUL bytes', () => {
    // Given a truncated 3-byte sequence, a stray continuation byte, an overlong form and a NUL
    const bytes = Buffer.concat([Buffer.from('ok '), Buffer.from([0xe2, 0x82]), Buffer.from(' '), Buffer.from([0x80]), Buffer.from([0xc0, 0xaf]), Buffer.from([0x00]), Buffer.from(' é')]);
    // When decoded
    const text = decodeUtf8Lossy(bytes);
    // Then every bad byte run is one or more U+FFFD and the good text survives
    expect(text.startsWith('ok ')).toBe(true);
    expect(text.endsWith(' é')).toBe(true);
    expect(text).not.toContain('\u0000');
    expect(text.replace(/[^\uFFFD]/g, '').length).toBeGreaterThanOrEqual(3);
  });
});

describe('sliceWellFormed', () => {
  it('never splits a surrogate pair at either end', () => {
    const text = 'ab\u{1F600}cd\u{1F600}';
    expect(sliceWellFormed(text, 0, 3)).toBe('ab');
    expect(sliceWellFormed(text, 3, text.length)).toBe('cd\u{1F600}');
    expect(sliceWellFormed(text, 0, 4)).toBe('ab\u{1F600}');
  });
});
