import { CODEX_MCP_STARTUP_NOTIFICATION, createCodexMcpStartupTracker } from './codex-mcp-startup.tracker';

const update = (name: string, status: string, error: string | null = null) => ({ threadId: 't-1', name, environmentId: null, status, error, failureReason: null });

describe('Codex MCP startup tracker', () => {
  it('given every server already ready, when the backend waits, then it resolves at once with none missing', async () => {
    const tracker = createCodexMcpStartupTracker();
    tracker.onNotification(CODEX_MCP_STARTUP_NOTIFICATION, update('notes', 'starting'));
    tracker.onNotification(CODEX_MCP_STARTUP_NOTIFICATION, update('notes', 'ready'));
    await expect(tracker.settled({ names: ['notes'], timeoutMs: 600_000 })).resolves.toEqual([]);
  });

  it('given a server still starting, when it gets ready later, then the wait ends with it', async () => {
    const tracker = createCodexMcpStartupTracker();
    tracker.onNotification(CODEX_MCP_STARTUP_NOTIFICATION, update('notes', 'starting'));
    const waiting = tracker.settled({ names: ['notes'], timeoutMs: 600_000 });
    tracker.onNotification('thread/started', {});
    tracker.onNotification(CODEX_MCP_STARTUP_NOTIFICATION, update('notes', 'ready'));
    await expect(waiting).resolves.toEqual([]);
  });

  it('given a server that failed, then the wait ends and names it with Codex\'s error', async () => {
    const tracker = createCodexMcpStartupTracker();
    const waiting = tracker.settled({ names: ['notes', 'docs'], timeoutMs: 600_000 });
    tracker.onNotification(CODEX_MCP_STARTUP_NOTIFICATION, update('notes', 'ready'));
    tracker.onNotification(CODEX_MCP_STARTUP_NOTIFICATION, update('docs', 'failed', 'connection refused'));
    await expect(waiting).resolves.toEqual([{ name: 'docs', state: 'failed', error: 'connection refused' }]);
  });

  it('given a server Codex never reports, then the wait runs out and names it unknown', async () => {
    const tracker = createCodexMcpStartupTracker();
    await expect(tracker.settled({ names: ['silent'], timeoutMs: 0 })).resolves.toEqual([{ name: 'silent', state: 'unknown', error: null }]);
  });
});
