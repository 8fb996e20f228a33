import { acpThinking, geminiThinking } from './acp-thinking';

describe('ACP thinking', () => {
  it('is not delivered, and each says why', () => {
    expect(acpThinking('high')).toEqual({ unsupported: expect.stringContaining('over ACP') as string });
    expect(geminiThinking('low')).toEqual({ unsupported: expect.stringContaining('ignores model config overrides') as string });
  });
});
