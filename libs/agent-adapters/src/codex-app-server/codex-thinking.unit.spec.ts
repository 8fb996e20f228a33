import { codexThinking } from './codex-thinking';

describe('Codex thinking', () => {
  it('overrides model_reasoning_effort for the run, off as none and max as xhigh', () => {
    expect(codexThinking('medium')).toEqual({ delivery: { args: ['-c', 'model_reasoning_effort="medium"'], env: {} } });
    expect(codexThinking('off')).toEqual({ delivery: { args: ['-c', 'model_reasoning_effort="none"'], env: {} } });
    expect(codexThinking('max')).toEqual({ delivery: { args: ['-c', 'model_reasoning_effort="xhigh"'], env: {} } });
  });
});
