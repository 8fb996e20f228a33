import { createUuidv7Generator, isUuidv7, uuidv7, uuidv7Timestamp } from './uuidv7';

describe('uuidv7', () => {
  it('has the RFC 9562 layout: version 7, variant 10', () => {
    for (let index = 0; index < 100; index += 1) {
      const id = uuidv7();
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(isUuidv7(id)).toBe(true);
    }
  });

  it('embeds the creation time in milliseconds', () => {
    const before = Date.now();
    const id = uuidv7();
    const after = Date.now();
    const embedded = uuidv7Timestamp(id).getTime();
    expect(embedded).toBeGreaterThanOrEqual(before);
    expect(embedded).toBeLessThanOrEqual(after);
  });

  it('sorts in creation order, including many ids within one millisecond', () => {
    const ids = Array.from({ length: 10_000 }, () => uuidv7());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('stays ordered when the clock stands still or steps back, and overflows into the next millisecond', () => {
    const times = [1_000, 1_000, 999, 1_000];
    let call = 0;
    const next = createUuidv7Generator({ now: () => times[Math.min(call++, times.length - 1)] ?? 1_000 });
    const ids = Array.from({ length: 5_000 }, () => next());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    // 5,000 ids cannot fit in one millisecond's 12-bit counter: later ones borrow the next millisecond.
    expect(uuidv7Timestamp(ids[0] ?? '').getTime()).toBe(1_000);
    expect(uuidv7Timestamp(ids.at(-1) ?? '').getTime()).toBeGreaterThan(1_000);
  });

  it('draws fresh entropy for every id across refills of its random pool', () => {
    // Given the default entropy source and a clock that moves every id (so the counter is re-seeded)
    let clock = 0;
    const next = createUuidv7Generator({ now: () => (clock += 1) });
    // When more ids are made than one pool refill serves
    const ids = Array.from({ length: 2_000 }, () => next());
    // Then their random tails (the last 62 bits) never repeat
    expect(new Set(ids.map((id) => id.slice(19))).size).toBe(ids.length);
  });

  it('is deterministic with an injected clock and entropy', () => {
    const options = { now: () => 0x0197a5c36f1e, random: (size: number) => new Uint8Array(size).fill(0xff) };
    expect(createUuidv7Generator(options)()).toBe('0197a5c3-6f1e-77ff-bfff-ffffffffffff');
  });

  it('recognises only UUIDv7 strings', () => {
    expect(isUuidv7('0b7e9a64-0c3e-4b8e-9f5a-3e7f1c2d4b5a')).toBe(false);
    expect(isUuidv7('0197A5C3-6F1E-7C2A-9B4D-2F1E3D4C5B6A')).toBe(false);
    expect(isUuidv7(42)).toBe(false);
    expect(() => uuidv7Timestamp('nope')).toThrow(TypeError);
  });
});
