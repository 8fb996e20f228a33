import { pooledRandomBytes } from './pooled-random';

describe('pooledRandomBytes', () => {
  it('hands out the sizes asked for, never the same bytes twice, across pool refills and beyond the pool', () => {
    // 300 tokens of 32 bytes span three pools of 4 KiB.
    const tokens = Array.from({ length: 300 }, () => pooledRandomBytes(32));
    expect(new Set(tokens.map((token) => token.length))).toEqual(new Set([32]));
    expect(new Set(tokens.map((token) => token.toString('hex'))).size).toBe(300);
    expect(pooledRandomBytes(12)).toHaveLength(12);
    expect(pooledRandomBytes(10_000)).toHaveLength(10_000);
  });

  it('gives each caller its own copy: changing one leaves the pool and the others alone', () => {
    const first = pooledRandomBytes(16);
    const copy = Buffer.from(first);
    const second = pooledRandomBytes(16);
    second.fill(0);
    expect(first.equals(copy)).toBe(true);
  });
});
