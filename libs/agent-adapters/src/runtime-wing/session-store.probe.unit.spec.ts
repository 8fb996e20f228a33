import { RUNTIME_IDENTITY_CATALOG } from '../catalog/runtime-identity.catalog';
import type { SessionStoreLayout } from '../family-kit/runtime-identity.types';
import { sessionFilePath } from './session-store.probe';

const layoutOf = (identity: string): SessionStoreLayout => {
  const layout = RUNTIME_IDENTITY_CATALOG.find((descriptor) => descriptor.identity === identity)?.sessionStore;
  if (!layout) throw new Error(`${identity} has no session store layout`);
  return layout;
};

describe('session file path from the runtime catalog', () => {
  const claude = layoutOf('claude-code');
  const qwen = layoutOf('qwen-code');

  it('Claude Code: every character but letters and digits of the cwd becomes "-", under HOME/.claude/projects (as the real CLI does)', () => {
    expect(sessionFilePath({ layout: claude, environment: { HOME: '/h' }, workDirectory: '/tmp/probe.cwd_x-8dIpKx/a.b_c d~e', sessionId: 's-1' })).toBe(
      '/h/.claude/projects/-tmp-probe-cwd-x-8dIpKx-a-b-c-d-e/s-1.jsonl',
    );
  });

  it('Claude Code: follows CLAUDE_CONFIG_DIR when the environment sets it', () => {
    expect(sessionFilePath({ layout: claude, environment: { HOME: '/h', CLAUDE_CONFIG_DIR: '/c' }, workDirectory: '/w', sessionId: 's-1' })).toBe('/c/projects/-w/s-1.jsonl');
  });

  it('Claude Code: does not guess the folder of a cwd too long for the CLI to keep whole', () => {
    expect(sessionFilePath({ layout: claude, environment: { HOME: '/h' }, workDirectory: `/${'a'.repeat(200)}`, sessionId: 's-1' })).toBeNull();
  });

  it('Qwen Code: chats under HOME/.qwen/projects/<slug>, long folders kept whole', () => {
    expect(sessionFilePath({ layout: qwen, environment: { HOME: '/h' }, workDirectory: '/srv/w.1/t_2', sessionId: 's-1' })).toBe('/h/.qwen/projects/-srv-w-1-t-2/chats/s-1.jsonl');
    expect(sessionFilePath({ layout: qwen, environment: { HOME: '/h' }, workDirectory: `/${'a'.repeat(300)}`, sessionId: 's-1' })).toContain('a'.repeat(300));
  });

  it('Qwen Code: QWEN_RUNTIME_DIR wins over QWEN_HOME, which wins over HOME', () => {
    expect(sessionFilePath({ layout: qwen, environment: { HOME: '/h', QWEN_HOME: '/q' }, workDirectory: '/w', sessionId: 's-1' })).toBe('/q/projects/-w/chats/s-1.jsonl');
    expect(sessionFilePath({ layout: qwen, environment: { HOME: '/h', QWEN_HOME: '/q', QWEN_RUNTIME_DIR: '/r' }, workDirectory: '/w', sessionId: 's-1' })).toBe('/r/projects/-w/chats/s-1.jsonl');
  });

  it('CodeBuddy and Cursor have no verified layout: their stores are not guessed from Claude\'s', () => {
    expect(RUNTIME_IDENTITY_CATALOG.find((descriptor) => descriptor.identity === 'codebuddy')?.sessionStore).toBeNull();
    expect(RUNTIME_IDENTITY_CATALOG.find((descriptor) => descriptor.identity === 'cursor-agent')?.sessionStore).toBeNull();
  });
});
