import { openCodeThinking } from './opencode-thinking';

describe('OpenCode thinking', () => {
  it('picks the variant of the same name for low, medium and high', () => {
    expect(openCodeThinking('medium')).toEqual({ delivery: { args: ['--variant', 'medium'], env: {} } });
  });

  it('delivers off as no variant (the wing then declares no reasoning model)', () => {
    expect(openCodeThinking('off')).toEqual({ delivery: { args: [], env: {} } });
  });

  it('has nothing above high', () => {
    expect(openCodeThinking('max')).toEqual({ unsupported: expect.stringContaining('above "high"') as string });
  });
});
