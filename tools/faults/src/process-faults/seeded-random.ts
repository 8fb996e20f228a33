/** A seed from the environment (`SWITCHYARD_FAULT_SEED`) to replay a run, else a fresh one. */
export function faultSeed(): number {
  const given = Number(process.env['SWITCHYARD_FAULT_SEED']);
  return Number.isInteger(given) && given > 0 ? given : Math.floor(Math.random() * 2 ** 31) + 1;
}

/** mulberry32: a small deterministic generator; `between(min, max)` is uniform in [min, max). */
export function seededRandom(seed: number): { next(): number; between(min: number, max: number): number } {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, between: (min, max) => min + next() * (max - min) };
}
