import { SAMPLE_AGENT } from './event-samples.spec-helper';
import { COMMAND_CATALOG, COMMAND_NAMES, createCommand, parseCommand, type CommandName, type CommandPayloadOf } from './command-catalog';
import { COMMAND_ERROR_CODES, commandFailure, commandSuccess } from './command-reply.schema';
import { ContractViolation } from './contract-violation.error';
import { isUuidv7 } from './uuidv7';

const later = '2025-06-01T12:05:00.000Z';

const PAYLOADS: { [TCommand in CommandName]: CommandPayloadOf<TCommand> } = {
  'task.enqueue': {
    workspaceId: 'workspace-1',
    agentId: 'agent-1',
    agent: SAMPLE_AGENT,
    runtimeId: 'runtime-1',
    source: { kind: 'chat', chatSessionId: 'chat-1', chatMessageId: 'chat-message-1' },
    priority: 5,
    prompt: 'Summarise the diff',
    forceFreshSession: false,
    maxAttempts: null,
    fireAt: null,
    expiresAt: null,
  },
  'task.claim': { daemonId: 'daemon-1', runtimeIds: ['runtime-1'], maxTasks: 4, sealingKey: `X${'A'.repeat(55)}` },
  'task.start': { taskId: 't1', attempt: 1, daemonId: 'daemon-1', leaseToken: 'lease-1', workDir: '/w/t1', resumedSessionId: 'session-1' },
  'task.renew': { taskId: 't1', attempt: 1, daemonId: 'daemon-1', leaseToken: 'lease-1' },
  'task.await_local_directory': { taskId: 't1', attempt: 1, daemonId: 'daemon-1', leaseToken: 'lease-1', localPath: '/home/ada/code/app', heldByTaskId: 't0' },
  'task.complete': {
    taskId: 't1',
    attempt: 1,
    daemonId: 'daemon-1',
    leaseToken: 'lease-1',
    sessionId: null,
    output: null,
    durationMs: 10,
    usage: [],
    repositories: [
      {
        name: 'app',
        checkoutMode: 'local_directory',
        branch: null,
        baseCommit: null,
        headCommit: null,
        filesChanged: 1,
        insertions: 2,
        deletions: 0,
        uncommittedFiles: 1,
      },
    ],
  },
  'task.fail': {
    taskId: 't1',
    attempt: 1,
    daemonId: 'daemon-1',
    leaseToken: 'lease-1',
    reason: 'agent_error',
    message: 'exit 1',
    sessionId: null,
    detail: 'stderr tail',
    durationMs: null,
    repositories: [],
  },
  'task.cancel': { taskId: 't1', requestedBy: { kind: 'api_token', id: 'token-1' }, reason: null },
  'task.requeue': { taskId: 't1', attempt: 1, daemonId: 'daemon-1', reason: 'cancelled_by_shutdown', message: 'daemon stopping' },
  'task.cancel_matching': { scope: { kind: 'issue', issueId: 'issue-7', agentId: null }, requestedBy: { kind: 'user', id: 'user-ada' }, reason: 'issue closed' },
  'task.release_orphans': { daemonId: 'daemon-1', bootedAt: later },
  'task.token_introspect': { tokenHash: 'a'.repeat(64) },
};

/** Fields an older sender may leave out: they parse to their default (see the test below). */
const DEFAULTED_FIELDS: Partial<Record<CommandName, readonly string[]>> = { 'task.complete': ['repositories'], 'task.fail': ['repositories'] };

function expectViolation(input: unknown, code: ContractViolation['code']): ContractViolation {
  const result = parseCommand(input);
  if (result.ok) throw new Error(`expected ${code}, but it parsed`);
  expect(result.error.code).toBe(code);
  return result.error;
}

describe('command catalog', () => {
  it('has the queue commands of the design', () => {
    expect([...COMMAND_NAMES].sort()).toEqual(
      [
        'task.await_local_directory',
        'task.cancel',
        'task.cancel_matching',
        'task.claim',
        'task.complete',
        'task.enqueue',
        'task.fail',
        'task.release_orphans',
        'task.renew',
        'task.requeue',
        'task.start',
        'task.token_introspect',
      ].sort(),
    );
  });

  describe.each(COMMAND_NAMES)('%s', (name) => {
    it('builds a request with a UUIDv7 request id that parses back, also from JSON', () => {
      const command = createCommand({ command: name, payload: PAYLOADS[name] });
      expect(isUuidv7(command.requestId)).toBe(true);
      expect(command.correlationId).toBe(command.requestId);
      expect(command.schemaVersion).toBe(COMMAND_CATALOG[name].schemaVersion);
      expect(parseCommand(JSON.parse(JSON.stringify(command)))).toEqual({ ok: true, command });
    });

    it('keeps a given request id so a retry is recognised', () => {
      const command = createCommand({ command: name, payload: PAYLOADS[name], requestId: 'request-1', correlationId: 'user-request-7' });
      expect(command.requestId).toBe('request-1');
      expect(command.correlationId).toBe('user-request-7');
    });

    it('rejects a payload missing any one field with invalid_payload', () => {
      const command = createCommand({ command: name, payload: PAYLOADS[name] });
      for (const field of Object.keys(PAYLOADS[name]).filter((key) => !DEFAULTED_FIELDS[name]?.includes(key))) {
        const payload: Record<string, unknown> = { ...PAYLOADS[name] };
        delete payload[field];
        expect(expectViolation({ ...command, payload }, 'invalid_payload').claimedType).toBe(name);
      }
    });
  });

  it('classifies bad requests', () => {
    const command = createCommand({ command: 'task.claim', payload: PAYLOADS['task.claim'] });
    expectViolation(undefined, 'invalid_envelope');
    expectViolation({ ...command, requestId: 'has space' }, 'invalid_envelope');
    expectViolation({ ...command, command: 'task.explode' }, 'unknown_command');
    expectViolation({ ...command, schemaVersion: 2 }, 'unsupported_schema_version');
    expectViolation({ ...command, payload: { ...PAYLOADS['task.claim'], runtimeIds: [] } }, 'invalid_payload');
    expectViolation({ ...command, payload: { ...PAYLOADS['task.claim'], maxTasks: 0 } }, 'invalid_payload');
  });

  it.each(['task.complete', 'task.fail'] as const)('%s from a daemon that reports no repositories parses with none', (name) => {
    const { repositories: _repositories, ...fromOlderDaemon } = PAYLOADS[name];
    const parsed = parseCommand({ requestId: 'request-1', command: name, schemaVersion: 1, correlationId: 'request-1', payload: fromOlderDaemon });
    expect(parsed).toMatchObject({ ok: true, command: { payload: { repositories: [] } } });
  });

  it('task.await_local_directory names the busy path and its holder, or null for an unknown holder', () => {
    const payload = { ...PAYLOADS['task.await_local_directory'], heldByTaskId: null };
    expect(createCommand({ command: 'task.await_local_directory', payload }).payload).toEqual(payload);
    expect(() => createCommand({ command: 'task.await_local_directory', payload: { ...payload, localPath: '' } })).toThrow(ContractViolation);
  });

  it.each(['task.start', 'task.renew', 'task.await_local_directory', 'task.complete', 'task.fail'] as const)('%s without its lease token is an invalid payload', (name) => {
    const { leaseToken: _leaseToken, ...withoutToken } = PAYLOADS[name];
    expect(() => createCommand({ command: name, payload: withoutToken as never })).toThrow(ContractViolation);
  });

  it('task.token_introspect takes the token\'s SHA-256, never the token itself', () => {
    expect(() => createCommand({ command: 'task.token_introspect', payload: { tokenHash: 'syt_the-token-itself' } })).toThrow(ContractViolation);
  });

  it('createCommand throws a ContractViolation for a bad payload', () => {
    expect(() => createCommand({ command: 'task.claim', payload: { ...PAYLOADS['task.claim'], daemonId: 'a.b' } })).toThrow(ContractViolation);
  });
});

describe('command replies', () => {
  const reply = COMMAND_CATALOG['task.renew'].reply;

  it('parse success, replayed success and failure', () => {
    const result = { leaseExpiresAt: later, cancelRequested: false };
    expect(reply.parse(commandSuccess(result))).toEqual({ ok: true, result });
    expect(reply.parse(commandSuccess(result, { alreadyApplied: true }))).toEqual({ ok: true, result, alreadyApplied: true });
    const failure = commandFailure('terminal_state', 'Task t1 is already completed');
    expect(reply.parse(failure)).toEqual(failure);
  });

  it('take retryable from the error code table unless overridden', () => {
    for (const code of Object.keys(COMMAND_ERROR_CODES) as (keyof typeof COMMAND_ERROR_CODES)[]) {
      expect(commandFailure(code, 'x').error.retryable).toBe(COMMAND_ERROR_CODES[code].retryable);
    }
    expect(commandFailure('unavailable', 'x', false).error.retryable).toBe(false);
    expect(commandFailure('unavailable', 'x').error.retryable).toBe(true);
    expect(commandFailure('terminal_state', 'x').error.retryable).toBe(false);
  });

  it('reject unknown error codes and results of the wrong shape', () => {
    expect(reply.safeParse({ ok: false, error: { code: 'teapot', message: 'x', retryable: false } }).success).toBe(false);
    expect(reply.safeParse({ ok: true, result: { tasks: [] } }).success).toBe(false);
    expect(reply.safeParse({ ok: 'yes', result: {} }).success).toBe(false);
  });
});

describe('claim replies', () => {
  const reply = COMMAND_CATALOG['task.claim'].reply;
  const claimed = {
    taskId: 'task-1',
    attempt: 1,
    workspaceId: 'workspace-1',
    agentId: 'agent-1',
    runtimeId: 'runtime-1',
    source: { kind: 'issue', issueId: 'issue-1', trigger: 'assignment', commentId: null },
    prompt: 'Fix the build',
    forceFreshSession: false,
    startBy: later,
    agent: SAMPLE_AGENT,
    sealedSecrets: 'xkv1-box:sealed',
    taskToken: 'syt_token',
    leaseToken: 'lease-token',
  } as const;

  it('carry no resume decision: the daemon asks session-resume itself', () => {
    expect(reply.parse(commandSuccess({ tasks: [claimed] }))).toEqual({ ok: true, result: { tasks: [claimed] } });
  });

  it('replayed from a reply stored while claims still carried one, parse without it', () => {
    const stored = { ok: true, result: { tasks: [{ ...claimed, resume: { status: 'undecided' } }] }, alreadyApplied: true };
    expect(reply.parse(stored)).toEqual({ ok: true, result: { tasks: [claimed] }, alreadyApplied: true });
  });

  it('replayed from a reply stored before secrets were sealed to the daemon, parse with none', () => {
    const { sealedSecrets: _none, ...older } = claimed;
    expect(reply.parse({ ok: true, result: { tasks: [older] } })).toEqual({ ok: true, result: { tasks: [{ ...claimed, sealedSecrets: null }] } });
  });
});
