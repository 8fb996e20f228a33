import { createHash, randomBytes } from 'node:crypto';
import { HEADERS, SERVICE_PUBLISHERS, STREAM_CATALOG, bundleIdOfSecretRef, resolveAgentSecrets, subjects, type AgentSecretValues } from '@switchyard/contracts';
import { createCurveSeed, curveKeyHolder, requestReply } from '@switchyard/messaging';
import { secretKeyring } from '@switchyard/persistence';
import { collectNotices, readStream } from '@switchyard/messaging/testing';
import { TEST_SEALING_KEY, startServiceForTest, uniqueNamespace, type ServiceUnderTest, sampleAgentSnapshot } from '@switchyard/testing';
import { queueApp } from './queue.app';
import { QueueTestClient, enqueuePayload } from './queue-test-client.spec-helper';

const DAEMON = 'daemon-1';
/** A runtime id is its daemon's id and more: the queue takes a runtime only from the daemon it names. */
const RUNTIME = `${DAEMON}-claim-retry`;

describe('queue commands over NATS (real NATS + Postgres)', () => {
  let queue: ServiceUnderTest;
  let client: QueueTestClient;

  beforeAll(async () => {
    queue = await startServiceForTest(queueApp, { database: true });
    client = await QueueTestClient.connect(queue);
  });
  afterAll(async () => {
    await client?.close();
    await queue?.stop();
  });

  /** Claims as DAEMON, which the queue heard the runtime from first: a daemon claims only for its own runtimes. */
  async function claimOne(runtimeId: string): Promise<{ taskId: string; attempt: number; leaseToken: string }> {
    await client.heartbeat(runtimeId, DAEMON);
    const { tasks } = await client.expectOk('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
    const [task] = tasks;
    if (!task) throw new Error('nothing claimed');
    return task;
  }

  /** A running task on a runtime of its own, so tests never claim each other's work. */
  async function startedTask(): Promise<{ taskId: string; attempt: number; leaseToken: string }> {
    const runtimeId = `${DAEMON}-${uniqueNamespace('runtime')}`;
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent') }));
    const claimed = await claimOne(runtimeId);
    expect(claimed.taskId).toBe(taskId);
    await client.expectOk('task.start', { taskId, attempt: claimed.attempt, daemonId: DAEMON, leaseToken: claimed.leaseToken, workDir: '/tmp/w', resumedSessionId: null });
    return claimed;
  }

  it('runs a task through enqueue, claim, start and complete, each change an event in the record', async () => {
    const { taskId, attempt, leaseToken } = await startedTask();
    const completed = await client.expectOk('task.complete', { taskId, attempt, daemonId: DAEMON, leaseToken, sessionId: 's-1', output: 'done', durationMs: 10, usage: [], repositories: [] });
    expect(completed).toEqual({ taskId, state: 'completed' });
    const tokens = await client.query<{ revoked: boolean }>('select revoked_at is not null as revoked from task_token where task_id = $1', [taskId]);
    expect(tokens).toEqual([{ revoked: true }]);
    expect(await client.storedEventTypes(taskId)).toEqual(['task.enqueued', 'task.claimed', 'task.started', 'task.completed']);
    const [row] = await client.query<{ status: string; attempt: number }>('select status, attempt from agent_task_queue where task_id = $1', [taskId]);
    expect(row).toEqual({ status: 'completed', attempt: 1 });
  });

  it('answers a claim retried with the same request id with the same task, and claims nothing more', async () => {
    // An issue task: the kind that continues a conversation, whose stored reply is never rewritten either.
    const source = { kind: 'issue', issueId: 'issue-retry', trigger: 'assignment', commentId: null } as const;
    const agent = { ...sampleAgentSnapshot(), env: { API_KEY: 'sk-stored-reply-secret' }, mcpConfig: { mcpServers: { docs: { command: 'docs-mcp', env: { DOCS_TOKEN: 'mcp-stored-reply-secret' } } } } };
    const { taskId: first } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId: RUNTIME, agentId: 'agent-retry', source, agent }));
    const { taskId: second } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId: RUNTIME, agentId: 'agent-retry' }));
    const claim = { daemonId: DAEMON, runtimeIds: [RUNTIME], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey };
    await client.heartbeat(RUNTIME, DAEMON);
    const storedReply = async () =>
      (await client.query<{ reply: string; row_version: string }>('select reply::text as reply, xmin::text as row_version from processed_command where request_id = $1', ['claim-request-lost-reply']))[0];

    const original = await client.send('task.claim', claim, 'claim-request-lost-reply');
    const storedFirst = await storedReply();
    const retried = await client.send('task.claim', claim, 'claim-request-lost-reply');

    if (!original.ok) throw new Error(original.error.message);
    expect(original.result.tasks.map((task) => task.taskId)).toEqual([first]);
    // The claim decides no session: the daemon asks session-resume itself before the run.
    expect(original.result.tasks[0]).not.toHaveProperty('resume');
    expect(retried).toEqual({ ...original, alreadyApplied: true });
    // Stored once, in the claim's transaction (the same transaction id as the task token it issued),
    // without the token; the replay only read it (same row version, same bytes).
    const [tokenRow] = await client.query<{ row_version: string }>('select xmin::text as row_version from task_token where task_id = $1', [first]);
    expect(storedFirst?.row_version).toBe(tokenRow?.row_version);
    expect(await storedReply()).toEqual(storedFirst);
    expect(JSON.parse(storedFirst!.reply)).toEqual({
      ok: true,
      result: {
        tasks: [
          {
            ...original.result.tasks[0],
            taskToken: '[not stored]',
            leaseToken: expect.stringMatching(/^sealed:v1:[\w-]+$/) as unknown,
          },
        ],
      },
    });
    // The agent's secrets travel as references, their values sealed to the claiming daemon's key:
    // only its seed opens them, and they resolve to the agent as enqueued.
    const claimed = original.result.tasks[0]!;
    expect(claimed.agent.env).toEqual({ API_KEY: expect.stringMatching(/^secret-ref:/) as unknown });
    expect(resolveAgentSecrets(claimed.agent, JSON.parse(TEST_SEALING_KEY.open(claimed.sealedSecrets!)) as AgentSecretValues)).toEqual(agent);
    for (const secret of ['sk-stored-reply-secret', 'mcp-stored-reply-secret']) {
      expect(storedFirst?.reply).not.toContain(secret);
      expect(JSON.stringify(original)).not.toContain(secret);
      const rows = await client.query<{ rows: string }>('select count(*)::text as rows from outbox_event where payload::text like $1', [`%${secret}%`]);
      expect({ secret, rows: rows[0]?.rows }).toEqual({ secret, rows: '0' });
      const bundles = await client.query<{ rows: string }>('select count(*)::text as rows from task_secret_bundle where sealed like $1', [`%${secret}%`]);
      expect({ secret, bundles: bundles[0]?.rows }).toEqual({ secret, bundles: '0' });
    }
    // The lease token is random (not derivable), kept sealed in the stored reply and hashed with the
    // attempt; the replay above gave back the very token, and it works.
    const leaseToken = original.result.tasks[0]!.leaseToken;
    expect(leaseToken).toMatch(/^[\w-]{43}$/);
    expect(storedFirst?.reply).not.toContain(leaseToken);
    const [leaseRow] = await client.query<{ lease_token_hash: string }>('select lease_token_hash from agent_task_queue where task_id = $1', [first]);
    expect(leaseRow).toEqual({ lease_token_hash: createHash('sha256').update(leaseToken).digest('hex') });
    // The replayed reply carries the same task token, though only its hash is at rest.
    const token = original.result.tasks[0]!.taskToken;
    expect(token).toMatch(/^syt_[\w-]{43}$/);
    expect(storedFirst?.reply).not.toContain(token);
    const tokens = await client.query<{ token_hash: string; revoked: boolean }>(
      'select token_hash, revoked_at is not null as revoked from task_token where task_id = $1',
      [first],
    );
    expect(tokens).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex'), revoked: false }]);
    expect(await client.storedEventTypes(first)).toEqual(['task.enqueued', 'task.claimed']);
    expect(await client.storedEventTypes(second)).toEqual(['task.enqueued']);
    await client.expectOk('task.start', { taskId: first, attempt: 1, daemonId: DAEMON, leaseToken, workDir: '/w', resumedSessionId: null });
  });

  // Two tries of one request id racing: the later one waits for the first's commit, finds its
  // reply's key taken, and answers that reply again instead of enqueuing a second task.
  it('enqueues one task when the same request id arrives several times at once, answers each with it, and nudges the runtime’s daemon once', async () => {
    const runtimeId = `${DAEMON}-${uniqueNamespace('runtime')}`;
    await client.heartbeat(runtimeId, DAEMON);
    const nudges = await collectNotices(client.messaging, subjects.workAvailable(DAEMON, runtimeId));
    const payload = enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent') });
    const replies = await Promise.all(Array.from({ length: 6 }, () => client.send('task.enqueue', payload, 'enqueue-sent-at-once')));
    // The applied try publishes its nudge before its reply, on the same connection: it is here by now.
    expect(nudges.received).toHaveLength(1);
    nudges.close();
    const tasks = await client.query<{ task_id: string }>('select task_id from agent_task_queue where runtime_id = $1', [runtimeId]);
    expect(tasks).toHaveLength(1);
    const taskId = tasks[0]?.task_id;
    expect(replies.map((reply) => (reply.ok ? reply.result.taskId : reply.error.code))).toEqual(Array.from({ length: 6 }, () => taskId));
    expect(replies.filter((reply) => reply.ok && reply.alreadyApplied === true)).toHaveLength(5);
    expect(await client.storedEventTypes(taskId as string)).toEqual(['task.enqueued']);
  });

  it('keeps one terminal event when complete arrives twice', async () => {
    const { taskId, attempt, leaseToken } = await startedTask();
    const report = { taskId, attempt, daemonId: DAEMON, leaseToken, sessionId: null, output: 'ok', durationMs: 5, usage: [], repositories: [] };

    const first = await client.send('task.complete', report);
    const second = await client.send('task.complete', report);

    expect(first).toEqual({ ok: true, result: { taskId, state: 'completed' } });
    expect(second).toEqual({ ok: true, result: { taskId, state: 'completed' }, alreadyApplied: true });
    expect((await client.storedEventTypes(taskId)).filter((type) => type === 'task.completed')).toHaveLength(1);
  });

  it('keeps a cancelled task cancelled when a late complete arrives', async () => {
    const { taskId, attempt, leaseToken } = await startedTask();
    await client.expectOk('task.cancel', { taskId, requestedBy: { kind: 'user', id: 'user-ada' }, reason: 'wrong branch' });
    // The run's complete report crossed the cancel: it ends the attempt, as cancelled.
    const late = await client.send('task.complete', { taskId, attempt, daemonId: DAEMON, leaseToken, sessionId: null, output: 'late', durationMs: 5, usage: [], repositories: [] });
    const lateAgain = await client.send('task.complete', { taskId, attempt, daemonId: DAEMON, leaseToken, sessionId: null, output: 'later', durationMs: 6, usage: [], repositories: [] });

    expect(late).toEqual({ ok: true, result: { taskId, state: 'cancelled' } });
    expect(lateAgain).toEqual({ ok: true, result: { taskId, state: 'cancelled' }, alreadyApplied: true });
    const types = await client.storedEventTypes(taskId);
    expect(types).toEqual(['task.enqueued', 'task.claimed', 'task.started', 'task.cancel_requested', 'task.cancelled']);
    const [row] = await client.query<{ status: string }>('select status from agent_task_queue where task_id = $1', [taskId]);
    expect(row?.status).toBe('cancelled');
  });

  it('answers an invalid payload with invalid_request and keeps serving', async () => {
    const reply = await client.send('task.claim', { daemonId: DAEMON, runtimeIds: [], maxTasks: 0, sealingKey: TEST_SEALING_KEY.publicKey }).catch((error: unknown) => error);
    expect(reply).toMatchObject({ name: 'ContractViolation' });
    const raw = await import('@switchyard/messaging').then(({ requestReply }) =>
      requestReply(client.messaging, { subject: subjects.command('task.claim', DAEMON), data: { nonsense: true }, requestId: 'bad-1' }),
    );
    expect(raw).toMatchObject({ ok: false, error: { code: 'invalid_request', retryable: false } });
    await expect(client.expectOk('task.claim', { daemonId: DAEMON, runtimeIds: [`${DAEMON}-runtime-empty`], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey })).resolves.toEqual({ tasks: [] });
  });

  it('cancels every unfinished task of an issue; the daemon of a running one is told to stop once it committed', async () => {
    const runtimeId = `${DAEMON}-${uniqueNamespace('runtime')}`;
    const issueId = uniqueNamespace('issue');
    const onIssue = (agentId: string, issue = issueId) =>
      client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId, source: { kind: 'issue', issueId: issue, trigger: 'mention', commentId: null } }));
    const running = await onIssue('agent-a');
    await client.heartbeat(runtimeId, DAEMON);
    const { tasks } = await client.expectOk('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
    await client.expectOk('task.start', { taskId: running.taskId, attempt: tasks[0]!.attempt, daemonId: DAEMON, leaseToken: tasks[0]!.leaseToken, workDir: '/w', resumedSessionId: null });
    const queuedSameAgent = await onIssue('agent-a');
    const queuedOtherAgent = await onIssue('agent-b');
    const otherIssue = await onIssue('agent-a', uniqueNamespace('issue'));
    const notices = await collectNotices(client.messaging, subjects.daemonNotices(DAEMON));

    const result = await client.expectOk('task.cancel_matching', {
      scope: { kind: 'issue', issueId, agentId: null },
      requestedBy: { kind: 'user', id: 'user-ada' },
      reason: 'issue closed',
    });

    expect(result.tasks).toEqual([
      { taskId: running.taskId, state: 'running' },
      { taskId: queuedSameAgent.taskId, state: 'cancelled' },
      { taskId: queuedOtherAgent.taskId, state: 'cancelled' },
    ]);
    expect(await client.storedEventTypes(otherIssue.taskId)).toEqual(['task.enqueued']);
    // Published after the commit, before the reply, on the queue's one connection: here already, or about to be.
    await notices.waitFor(1, { timeoutMs: 5_000 });
    // Only the running task's daemon hears of it: the queued ones were cancelled outright.
    expect(notices.received.map((notice) => notice.subject)).toEqual([subjects.cancelNotice(DAEMON, running.taskId)]);
    notices.close();
    const recorded = await waitForStreamMessage(subjects.taskEvent({ type: 'task.cancel_requested', taskId: running.taskId, publisher: SERVICE_PUBLISHERS.queue }));
    expect(recorded).toMatchObject({ type: 'task.cancel_requested', payload: { taskId: running.taskId, requestedBy: { kind: 'user', id: 'user-ada' } } });
  });

  it('tells the daemon holding a running task to stop when a single cancel commits', async () => {
    const { taskId, leaseToken } = await startedTask();
    const notices = await collectNotices(client.messaging, subjects.cancelNotice(DAEMON, taskId));
    await client.expectOk('task.cancel', { taskId, requestedBy: { kind: 'user', id: 'user-ada' }, reason: null });
    expect(await notices.waitFor(1, { timeoutMs: 5_000 })).toHaveLength(1);
    // The renewal carries it too, for a daemon that missed the notice.
    await expect(client.expectOk('task.renew', { taskId, attempt: 1, daemonId: DAEMON, leaseToken })).resolves.toMatchObject({ cancelRequested: true });
  });

  it('refuses a daemon-sent command whose payload names another daemon than its subject, changing nothing', async () => {
    const { taskId, attempt, leaseToken } = await startedTask();
    const report = { taskId, attempt, daemonId: DAEMON, leaseToken, sessionId: null, output: 'forged', durationMs: 1, usage: [], repositories: [] };

    const forged = await client.sendAs('daemon-intruder', 'task.complete', report, 'forged-complete');

    expect(forged).toEqual({ ok: false, error: { code: 'sender_mismatch', message: expect.stringContaining('daemon-intruder') as unknown, retryable: false } });
    expect(await client.storedEventTypes(taskId)).toEqual(['task.enqueued', 'task.claimed', 'task.started']);
    expect(await client.query('select 1 from processed_command where request_id = $1', ['forged-complete'])).toEqual([]);
    // The real daemon may still use that request id.
    await expect(client.send('task.complete', report, 'forged-complete')).resolves.toEqual({ ok: true, result: { taskId, state: 'completed' } });
  });

  it('never replays a stored claim to another sender repeating its request id', async () => {
    const runtimeId = `${DAEMON}-${uniqueNamespace('runtime')}`;
    await client.heartbeat(runtimeId, DAEMON);
    await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent') }));
    const original = await client.send('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey }, 'claim-taken-by-another');
    if (!original.ok) throw new Error(original.error.message);
    expect(original.result.tasks).toHaveLength(1);

    const other = 'daemon-eavesdropper';
    const replayed = await client.send('task.claim', { daemonId: other, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey }, 'claim-taken-by-another');

    expect(replayed).toEqual({ ok: false, error: { code: 'sender_mismatch', message: 'this request id was used by another sender', retryable: false } });
    expect(JSON.stringify(replayed)).not.toContain(original.result.tasks[0]!.taskId);
    // The claimer itself still gets its first reply.
    await expect(client.send('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey }, 'claim-taken-by-another')).resolves.toEqual({
      ...original,
      alreadyApplied: true,
    });
  });

  async function waitForStreamMessage(subject: string): Promise<unknown> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const found = (await readStream(client.messaging, STREAM_CATALOG.TASK_EVENTS.name)).find((message) => message.subject === subject);
      if (found) return JSON.parse(found.text) as unknown;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`nothing published on ${subject}`);
  }

  it('seals secrets only to the key a daemon first claimed with: a claim naming another key is refused and wins nothing', async () => {
    const daemonId = uniqueNamespace('daemon-pinned');
    const runtimeId = `${daemonId}-claude-code`;
    await client.heartbeat(runtimeId, daemonId);
    await expect(client.expectOk('task.claim', { daemonId, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey })).resolves.toEqual({ tasks: [] });
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent'), agent: { ...sampleAgentSnapshot(), env: { API_KEY: 'sk-pinned-secret-value' } } }));

    const otherKey = curveKeyHolder(createCurveSeed());
    await expect(client.send('task.claim', { daemonId, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: otherKey.publicKey })).resolves.toMatchObject({
      ok: false,
      error: { code: 'sender_mismatch' },
    });
    expect(await client.storedEventTypes(taskId)).toEqual(['task.enqueued']);
    const { tasks } = await client.expectOk('task.claim', { daemonId, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
    expect(tasks.map((task) => task.taskId)).toEqual([taskId]);
    expect(() => otherKey.open(tasks[0]!.sealedSecrets!)).toThrow(/does not open/);
    // The task's event names its secret bundle; TASK_EVENTS never holds the value.
    const enqueued = (await readStream(client.messaging, STREAM_CATALOG.TASK_EVENTS.name)).find((message) => message.subject.startsWith(`task.enqueued.${taskId}.`));
    expect(enqueued?.text).toMatch(/secret-ref:/);
    expect(enqueued?.text).not.toContain('sk-pinned-secret-value');
  });

  it('still claims a task whose secret bundle no longer opens, its references left for the daemon to refuse', async () => {
    const daemonId = uniqueNamespace('daemon-lost-key');
    const runtimeId = `${daemonId}-claude-code`;
    await client.heartbeat(runtimeId, daemonId);
    const agent = { ...sampleAgentSnapshot(), env: { API_KEY: 'sk-lost-key-secret' } };
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId, agentId: uniqueNamespace('agent'), agent }));
    // The bundle as if sealed under a key this queue no longer has.
    const bundleId = (await client.query<{ bundle: string }>(`select payload -> 'payload' -> 'agent' -> 'env' ->> 'API_KEY' as bundle from outbox_event where aggregate_id = $1 and type = 'task.enqueued'`, [taskId]))[0]!.bundle;
    const lostKey = secretKeyring([randomBytes(32)]);
    await client.query('update task_secret_bundle set sealed = $2 where bundle_id = $1', [bundleIdOfSecretRef(bundleId), lostKey.seal('task secret bundle', '{}')]);

    const { tasks } = await client.expectOk('task.claim', { daemonId, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });

    expect(tasks.map((task) => ({ taskId: task.taskId, env: task.agent.env, sealedSecrets: task.sealedSecrets }))).toEqual([{ taskId, env: { API_KEY: bundleId }, sealedSecrets: null }]);
  });

  it('claims only runtimes the sender registered: another daemon naming them wins nothing', async () => {
    const [daemonA, daemonB] = [uniqueNamespace('daemon-a'), uniqueNamespace('daemon-b')];
    const [runtimeOfA, runtimeOfB] = [`${daemonA}-claude-code`, `${daemonB}-claude-code`];
    await client.heartbeat(runtimeOfA, daemonA);
    await client.heartbeat(runtimeOfB, daemonB);
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId: runtimeOfA, agentId: uniqueNamespace('agent') }));

    // B names A's runtime (next to its own): A registered it and its id is under A's, so it is
    // ignored and A's queued task stays A's.
    await expect(client.expectOk('task.claim', { daemonId: daemonB, runtimeIds: [runtimeOfB, runtimeOfA], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey })).resolves.toEqual({ tasks: [] });
    expect(await client.storedEventTypes(taskId)).toEqual(['task.enqueued']);

    const { tasks } = await client.expectOk('task.claim', { daemonId: daemonA, runtimeIds: [runtimeOfA], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
    expect(tasks.map((task) => task.taskId)).toEqual([taskId]);
  });

  it('never gives a runtime to another daemon: a heartbeat from B for A’s runtime changes nothing, so B still wins nothing', async () => {
    const [daemonA, daemonB] = [uniqueNamespace('daemon-a'), uniqueNamespace('daemon-b')];
    const runtimeOfA = `${daemonA}-claude-code`;
    await client.heartbeat(runtimeOfA, daemonA);
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId: runtimeOfA, agentId: uniqueNamespace('agent') }));
    // B heartbeats A's runtime under its own name (an id not under B's, so dead-lettered; A holds it
    // anyway): the queue keeps A as its daemon.
    await expect(client.heartbeat(runtimeOfA, daemonB)).rejects.toThrow(/did not record/);
    expect(await client.query('select daemon_id from runtime_presence where runtime_id = $1', [runtimeOfA])).toEqual([{ daemon_id: daemonA }]);
    await expect(client.expectOk('task.claim', { daemonId: daemonB, runtimeIds: [runtimeOfA], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey })).resolves.toEqual({ tasks: [] });
    expect(await client.storedEventTypes(taskId)).toEqual(['task.enqueued']);
  }, 30_000);

  it('dead-letters a heartbeat for a runtime id not under the sender’s daemon id and never records it, so a daemon cannot squat a runtime before its owner registers it', async () => {
    const [daemonB, daemonC] = [uniqueNamespace('daemon-b'), uniqueNamespace('daemon-c')];
    const runtimeOfC = `${daemonC}-claude-code`;
    // B heartbeats C's predictable runtime id before C ever has.
    const squat = await client.publishHeartbeat(runtimeOfC, daemonB);

    // Dead-lettered for naming a runtime outside B's id; once dead-lettered it can no longer be recorded.
    expect(await deadLetterReasonsOf(squat)).toEqual([expect.stringContaining(`which is not under daemon ${daemonB}'s id`)]);
    expect(await client.query('select daemon_id from runtime_presence where runtime_id = $1', [runtimeOfC])).toEqual([]);

    await client.heartbeat(runtimeOfC, daemonC);
    expect(await client.query('select daemon_id from runtime_presence where runtime_id = $1', [runtimeOfC])).toEqual([{ daemon_id: daemonC }]);
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ runtimeId: runtimeOfC, agentId: uniqueNamespace('agent') }));
    await expect(client.expectOk('task.claim', { daemonId: daemonB, runtimeIds: [runtimeOfC], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey })).resolves.toEqual({ tasks: [] });
    expect(await client.storedEventTypes(taskId)).toEqual(['task.enqueued']);
    const { tasks } = await client.expectOk('task.claim', { daemonId: daemonC, runtimeIds: [runtimeOfC], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
    expect(tasks.map((task) => task.taskId)).toEqual([taskId]);
  });

  /** The reasons of the runtime-presence dead letters of the heartbeat published on `subject`, once there is one. */
  async function deadLetterReasonsOf(subject: string): Promise<Array<string | undefined>> {
    const deadLetters = subjects.deadLetter(STREAM_CATALOG.RUNTIME_EVENTS.name, 'queue-runtime-presence');
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const found = (await readStream(client.messaging, STREAM_CATALOG.DEAD_LETTERS.name))
        .filter((letter) => letter.subject === deadLetters && letter.headers[HEADERS.deadLetterSubject] === subject)
        .map((letter) => letter.headers[HEADERS.deadLetterReason]);
      if (found.length > 0) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no dead letter of ${subject}`);
  }

  describe('a report must prove the attempt’s lease', () => {
    const completeOf = (task: { taskId: string; attempt: number }, daemonId: string, leaseToken: string) => ({
      taskId: task.taskId,
      attempt: task.attempt,
      daemonId,
      leaseToken,
      sessionId: null,
      output: 'forged',
      durationMs: 1,
      usage: [],
      repositories: [],
    });

    /** Nothing was changed by the refused reports: no event, the row as it was, no stored reply. */
    async function expectUnchanged(taskId: string, requestIds: string[]): Promise<void> {
      expect(await client.storedEventTypes(taskId)).toEqual(['task.enqueued', 'task.claimed', 'task.started']);
      expect(await client.query('select status, daemon_id from agent_task_queue where task_id = $1', [taskId])).toEqual([{ status: 'running', daemon_id: DAEMON }]);
      expect(await client.query('select request_id from processed_command where request_id = any($1)', [requestIds])).toEqual([]);
    }

    it('refuses a complete from the holder’s id without the token (the contract) or with a wrong one, changing nothing', async () => {
      const task = await startedTask();
      const withoutToken = { ...completeOf(task, DAEMON, task.leaseToken), leaseToken: undefined };
      const requestId = uniqueNamespace('no-token');
      const unsigned = await requestReply(client.messaging, {
        subject: subjects.command('task.complete', DAEMON),
        data: { requestId, correlationId: requestId, command: 'task.complete', schemaVersion: 1, payload: withoutToken },
        requestId,
      });
      const wrong = await client.send('task.complete', completeOf(task, DAEMON, 'x'.repeat(43)), 'wrong-token');

      expect(unsigned).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
      expect(wrong).toEqual({ ok: false, error: { code: 'sender_mismatch', message: expect.stringContaining('does not hold the lease') as unknown, retryable: false } });
      await expectUnchanged(task.taskId, [requestId, 'wrong-token']);
    });

    it('refuses a complete from another daemon even with the right token, changing nothing; the holder then completes', async () => {
      const task = await startedTask();

      const forged = await client.send('task.complete', completeOf(task, 'daemon-thief', task.leaseToken), 'thief-complete');
      const forgedRenew = await client.send('task.renew', { taskId: task.taskId, attempt: task.attempt, daemonId: 'daemon-thief', leaseToken: task.leaseToken });

      expect(forged).toMatchObject({ ok: false, error: { code: 'sender_mismatch', message: expect.stringContaining('daemon-thief') as unknown } });
      expect(forgedRenew).toMatchObject({ ok: false, error: { code: 'sender_mismatch' } });
      await expectUnchanged(task.taskId, ['thief-complete']);
      await expect(client.expectOk('task.renew', { taskId: task.taskId, attempt: task.attempt, daemonId: DAEMON, leaseToken: task.leaseToken })).resolves.toMatchObject({
        cancelRequested: false,
      });
      await expect(client.expectOk('task.complete', { ...completeOf(task, DAEMON, task.leaseToken), output: 'done' })).resolves.toEqual({ taskId: task.taskId, state: 'completed' });
    });
  });
});
