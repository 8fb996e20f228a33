import { SESSION_COMMAND_CATALOG, subjects, type SessionResolveCommand, type SessionResolvePayload, type SessionResolveResult } from '@switchyard/contracts';
import { serveRequests, type RequestServer } from '@switchyard/messaging';
import { startServiceForTest, uniqueNamespace, type ServiceUnderTest } from '@switchyard/testing';
import { queueService } from '../queue.service';
import { QueueTestClient, enqueuePayload } from '../queue-test-client.spec-helper';

const DAEMON = 'daemon-resume';
const RESOLVE_TIMEOUT_MS = 500;

/**
 * The claim context carries the session-resume service's answer (real NATS + Postgres). The
 * service itself is not imported: a small responder on `cmd.session.resolve` stands in for it.
 */
describe('claim asks session-resume after it committed', () => {
  let queue: ServiceUnderTest;
  let client: QueueTestClient;
  let responder: RequestServer | undefined;

  beforeAll(async () => {
    queue = await startServiceForTest(queueService, { database: true, env: { QUEUE_SESSION_RESOLVE_TIMEOUT_MS: String(RESOLVE_TIMEOUT_MS) } });
    client = await QueueTestClient.connect(queue);
  });
  afterEach(async () => {
    await responder?.stop();
    responder = undefined;
  });
  afterAll(async () => {
    await client?.close();
    await queue?.stop();
  });

  /** Answers like the session-resume service would, and records what it was asked. */
  function serveResolve(answer: (payload: SessionResolvePayload) => SessionResolveResult | 'silence'): SessionResolvePayload[] {
    const asked: SessionResolvePayload[] = [];
    responder = serveRequests(client.messaging, {
      subject: subjects.command('session.resolve'),
      queueGroup: 'session-resume',
      requestSchema: SESSION_COMMAND_CATALOG['session.resolve'].request,
      handler: async (envelope: SessionResolveCommand) => {
        asked.push(envelope.payload);
        const result = answer(envelope.payload);
        if (result === 'silence') await new Promise((resolve) => setTimeout(resolve, RESOLVE_TIMEOUT_MS * 2));
        return result;
      },
    });
    return asked;
  }

  /** A chat task of its own session (a chat session belongs to one agent). */
  const chatSource = () => ({ kind: 'chat', chatSessionId: uniqueNamespace('chat'), chatMessageId: 'message-1' }) as const;

  async function enqueueOnFreshRuntime(overrides: Parameters<typeof enqueuePayload>[0] = {}): Promise<{ runtimeId: string; taskId: string }> {
    const runtimeId = overrides.runtimeId ?? uniqueNamespace('runtime');
    const { taskId } = await client.expectOk('task.enqueue', enqueuePayload({ agentId: uniqueNamespace('agent'), ...overrides, runtimeId }));
    return { runtimeId, taskId };
  }

  it('never asks for a task that continues no conversation (quick create, autopilot)', async () => {
    const asked = serveResolve(() => ({ status: 'fresh', reason: 'no_prior_session' }));
    const { runtimeId, taskId } = await enqueueOnFreshRuntime({ source: { kind: 'quick_create' } });

    const { tasks } = await client.expectOk('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 1 });

    expect(tasks.map((task) => [task.taskId, task.resume])).toEqual([[taskId, { status: 'fresh', reason: 'no_prior_session' }]]);
    expect(asked).toEqual([]);
  });

  it('passes each answer through, asks for every undecided task, never for a forced fresh one, and replays the same decisions', async () => {
    const asked = serveResolve((payload) =>
      payload.agentId.endsWith('-b') ? { status: 'fresh', reason: 'no_prior_session' } : { status: 'resume', sessionId: `session-of-${payload.taskId}`, workDir: '/work/prior' },
    );
    const runtimeId = uniqueNamespace('runtime');
    const source = { kind: 'issue', issueId: 'issue-1', trigger: 'mention', commentId: 'c1' } as const;
    const { taskId: resumed } = await enqueueOnFreshRuntime({ runtimeId, agentId: `${runtimeId}-a`, source });
    const { taskId: fresh } = await enqueueOnFreshRuntime({ runtimeId, agentId: `${runtimeId}-b`, source });
    const { taskId: forced } = await enqueueOnFreshRuntime({ runtimeId, agentId: `${runtimeId}-c`, source, forceFreshSession: true });

    const reply = await client.send('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 3 }, `claim-${runtimeId}`);

    if (!reply.ok) throw new Error(reply.error.message);
    const resumeOf = Object.fromEntries(reply.result.tasks.map((task) => [task.taskId, task.resume]));
    expect(resumeOf).toEqual({
      [resumed]: { status: 'resume', sessionId: `session-of-${resumed}`, workDir: '/work/prior' },
      [fresh]: { status: 'fresh', reason: 'no_prior_session' },
      [forced]: { status: 'fresh', reason: 'forced_fresh' },
    });
    expect(asked.map((payload) => payload.taskId).sort()).toEqual([resumed, fresh].sort());
    expect(asked.find((payload) => payload.taskId === resumed)).toEqual({ taskId: resumed, agentId: `${runtimeId}-a`, runtimeId, source, forceFreshSession: false });

    // A daemon whose reply was lost gets the same decisions, without asking again.
    const replayed = await client.send('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 3 }, `claim-${runtimeId}`);
    expect(replayed).toEqual({ ...reply, alreadyApplied: true });
    expect(asked).toHaveLength(2);
  });

  it('starts the task fresh with resume_index_unavailable when no session-resume service listens', async () => {
    const { runtimeId, taskId } = await enqueueOnFreshRuntime({ source: chatSource() });

    const { tasks } = await client.expectOk('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 1 });

    expect(tasks.map((task) => [task.taskId, task.resume])).toEqual([[taskId, { status: 'fresh', reason: 'resume_index_unavailable' }]]);
    expect(await client.storedEventTypes(taskId)).toEqual(['task.enqueued', 'task.claimed']);
  });

  it('does not wait beyond the timeout for a service that does not answer, and never fails the claim', async () => {
    serveResolve(() => 'silence');
    const { runtimeId, taskId } = await enqueueOnFreshRuntime({ source: chatSource() });

    // Without the timeout this claim would never be answered.
    const { tasks } = await client.expectOk('task.claim', { daemonId: DAEMON, runtimeIds: [runtimeId], maxTasks: 1 });

    expect(tasks.map((task) => [task.taskId, task.resume])).toEqual([[taskId, { status: 'fresh', reason: 'resume_index_unavailable' }]]);
  });
});
