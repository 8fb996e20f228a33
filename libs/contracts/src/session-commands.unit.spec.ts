import { SESSION_COMMAND_CATALOG, COMMAND_NAMES } from './command-catalog';
import { STREAM_CATALOG } from './stream-catalog';
import { subjects } from './subjects';

const resolve = SESSION_COMMAND_CATALOG['session.resolve'];
const request = {
  requestId: 'request-1',
  command: 'session.resolve',
  schemaVersion: 1,
  correlationId: 'request-1',
  payload: {
    taskId: 'task-2',
    agentId: 'agent-1',
    runtimeId: 'runtime-1',
    source: { kind: 'issue', issueId: 'issue-7', trigger: 'mention', commentId: null },
    forceFreshSession: false,
  },
};

describe('session.resolve command', () => {
  it('is requested by a daemon on cmd.session.resolve.<daemonId>, which no stream captures', () => {
    expect(subjects.command('session.resolve', 'd1')).toBe('cmd.session.resolve.d1');
    for (const stream of Object.values(STREAM_CATALOG)) {
      expect(stream.subjects.some((filter) => filter.startsWith('cmd'))).toBe(false);
    }
  });

  it('stays out of the queue catalog, whose every command the queue serves', () => {
    expect(COMMAND_NAMES).not.toContain('session.resolve');
  });

  it('parses a request, also after a JSON round trip', () => {
    expect(resolve.request.parse(JSON.parse(JSON.stringify(request)))).toEqual(request);
  });

  it('rejects a request without forceFreshSession', () => {
    const { forceFreshSession: _omitted, ...payload } = request.payload;
    expect(resolve.request.safeParse({ ...request, payload }).success).toBe(false);
  });

  it('answers fresh with a reason or resume with a session, never undecided', () => {
    expect(resolve.reply.parse({ ok: true, result: { status: 'fresh', reason: 'poisoned:iteration_limit' } }).ok).toBe(true);
    expect(resolve.reply.parse({ ok: true, result: { status: 'resume', sessionId: 's-1', workDir: '/w/1' } }).ok).toBe(true);
    expect(resolve.reply.safeParse({ ok: true, result: { status: 'undecided' } }).success).toBe(false);
    expect(resolve.reply.safeParse({ ok: true, result: { status: 'fresh', reason: '' } }).success).toBe(false);
  });
});
