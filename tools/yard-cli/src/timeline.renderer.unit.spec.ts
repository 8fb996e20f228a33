import type { TimelineEntry } from '@switchyard/contracts';
import { renderActivity, renderEntry, renderStatus } from './timeline.renderer';

const entry = (fields: Partial<TimelineEntry>): TimelineEntry => ({
  id: 'e',
  taskId: 't',
  seq: 3,
  attempt: 1,
  type: 'text',
  tool: null,
  callId: null,
  content: null,
  input: null,
  output: null,
  outputTruncated: false,
  toolStatus: null,
  errorCode: null,
  noticeCode: null,
  createdAt: '2026-11-30T00:00:00.000Z',
  ...fields,
});

describe('timeline rendering for the terminal', () => {
  it('renders each kind of row on its own line with its seq', () => {
    expect(renderEntry(entry({ type: 'text', content: 'Hello\nworld' }))).toBe('   #3 Hello\n    world');
    expect(renderEntry(entry({ type: 'tool_use', tool: 'Bash', input: { command: 'ls' } }))).toBe('   #3 → Bash {"command":"ls"}');
    expect(renderEntry(entry({ type: 'tool_result', tool: 'Bash', output: 'a.txt', toolStatus: 'error', outputTruncated: true }))).toBe('   #3 ← Bash (error) [truncated] a.txt');
    expect(renderEntry(entry({ type: 'error', errorCode: 'claude_error', content: 'boom' }))).toBe('   #3 ✖ claude_error: boom');
  });

  it('renders a daemon notice with its code, apart from the agent’s words', () => {
    const notice = entry({ seq: 12, type: 'notice', noticeCode: 'repository_work', content: 'api: branch switchyard/task-1, 3 files changed.' });
    expect(renderEntry(notice)).toBe('  #12 ▸ repository_work: api: branch switchyard/task-1, 3 files changed.');
    expect(renderEntry({ ...notice, content: 'first line\nsecond line' })).toBe('  #12 ▸ repository_work: first line\n    second line');
  });

  it('shortens long output to a preview', () => {
    const rendered = renderEntry(entry({ type: 'tool_result', tool: 'Read', output: 'x'.repeat(1_000), toolStatus: 'ok' }));
    expect(rendered.length).toBeLessThan(450);
    expect(rendered.endsWith('…')).toBe(true);
  });

  it('shows status and usage activity, hides debug logs', () => {
    expect(renderActivity(0, { type: 'status', state: 'started', sessionId: 's-1' })).toBe('   #0 · started (session s-1)');
    expect(renderActivity(9, { type: 'usage', model: 'm', inputTokens: 10, outputTokens: 2 })).toBe('   #9 · usage m: 10 in, 2 out');
    expect(renderActivity(1, { type: 'log', level: 'debug', text: 'noise' })).toBeUndefined();
  });

  it('names a status change and its reason', () => {
    expect(renderStatus({ event: 'task.failed', status: 'failed', reason: 'timeout' })).toBe('  == failed (timeout)');
  });
});
