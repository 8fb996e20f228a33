import { piThinking } from './pi-thinking';
import { resolveThinking } from '../backend/thinking-level';

describe('Pi thinking', () => {
  it('gives each level as --thinking, max as xhigh', () => {
    expect(resolveThinking('medium', piThinking)).toEqual({ args: ['--thinking', 'medium'], env: {}, notes: [] });
    expect(resolveThinking('max', piThinking).args).toEqual(['--thinking', 'xhigh']);
    expect(resolveThinking('off', piThinking).args).toEqual(['--thinking', 'off']);
  });

});
