import { asksForThinking, resolveThinking, unsupportedThinking, type ThinkingMapper } from './thinking-level';

const flagged: ThinkingMapper = (level) => ({ delivery: { args: ['--level', level], env: { LEVEL: level } } });

describe('resolveThinking', () => {
  it('delivers nothing and says nothing when the agent names no level', () => {
    expect(resolveThinking(undefined, flagged)).toEqual({ args: [], env: {}, notes: [] });
    expect(resolveThinking('  ', flagged)).toEqual({ args: [], env: {}, notes: [] });
  });

  it('maps a known level, whatever its case and spacing', () => {
    expect(resolveThinking(' High ', flagged)).toEqual({ args: ['--level', 'high'], env: { LEVEL: 'high' }, notes: [] });
  });

  it('delivers nothing for an unknown level and warns with the known ones', () => {
    const resolved = resolveThinking('ultra', flagged);

    expect(resolved.args).toEqual([]);
    expect(resolved.notes).toEqual([{ type: 'log', level: 'warn', text: 'thinking level "ultra" is not one of off, low, medium, high, max; the CLI runs with its default' }]);
  });

  it('delivers nothing for a CLI without the setting and warns with its reason', () => {
    const resolved = resolveThinking('low', unsupportedThinking('no flag for it'));

    expect(resolved).toEqual({ args: [], env: {}, notes: [{ type: 'log', level: 'warn', text: 'thinking level "low" not applied: no flag for it' }] });
  });
});

describe('asksForThinking', () => {
  it('is true for a known level other than off', () => {
    expect(asksForThinking('medium')).toBe(true);
    expect(asksForThinking('MAX')).toBe(true);
    expect(asksForThinking('off')).toBe(false);
    expect(asksForThinking('ultra')).toBe(false);
    expect(asksForThinking(null)).toBe(false);
    expect(asksForThinking(undefined)).toBe(false);
  });
});
