import { copilotThinking } from './copilot-thinking';

describe('Copilot thinking', () => {
  it('passes --reasoning-effort, off as none', () => {
    expect(copilotThinking('high')).toEqual({ delivery: { args: ['--reasoning-effort', 'high'], env: {} } });
    expect(copilotThinking('off')).toEqual({ delivery: { args: ['--reasoning-effort', 'none'], env: {} } });
    expect(copilotThinking('max')).toEqual({ delivery: { args: ['--reasoning-effort', 'max'], env: {} } });
  });
});
