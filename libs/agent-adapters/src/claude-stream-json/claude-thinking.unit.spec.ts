import { claudeCodeThinking, qwenCodeThinking } from './claude-thinking';

describe('Claude Code thinking', () => {
  it('gives --effort for effort models and a token budget for budget models', () => {
    expect(claudeCodeThinking('low')).toEqual({ delivery: { args: ['--effort', 'low'], env: { MAX_THINKING_TOKENS: '4000' } } });
    expect(claudeCodeThinking('max')).toEqual({ delivery: { args: ['--effort', 'max'], env: { MAX_THINKING_TOKENS: '63999' } } });
  });

  it('turns thinking off with a zero budget and no effort', () => {
    expect(claudeCodeThinking('off')).toEqual({ delivery: { args: [], env: { MAX_THINKING_TOKENS: '0' } } });
  });

  it('gives Qwen Code a run settings file with the reasoning effort, false for off', () => {
    expect(qwenCodeThinking('medium')).toEqual({
      delivery: { args: [], env: {}, settingsFile: { variable: 'QWEN_CODE_SYSTEM_SETTINGS_PATH', content: { model: { generationConfig: { reasoning: { effort: 'medium' } } } } } },
    });
    expect(qwenCodeThinking('off')).toMatchObject({ delivery: { settingsFile: { content: { model: { generationConfig: { reasoning: false } } } } } });
  });

  it('has nothing above high for Qwen Code', () => {
    expect(qwenCodeThinking('max')).toEqual({ unsupported: expect.stringContaining('above "high"') as string });
  });
});
