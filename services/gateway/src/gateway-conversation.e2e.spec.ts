import { SERVICE_PUBLISHERS, STREAM_CATALOG, subjects, type TaskSource } from '@switchyard/contracts';
import { type MessagingConnection } from '@switchyard/messaging';
import { readStream } from '@switchyard/messaging/testing';
import { waitForIndexedSession, startSystemProcesses, type SystemProcesses } from '@switchyard/testing';
import { gatewayCaller, until, finishedTask, type LooseJson, type GatewayResponse } from './gateway-e2e.spec-helper';

const DAEMON_ID = 'daemon-conversation-e2e';
const RUNTIME_ID = `${DAEMON_ID}-claude-code`;
const TOKEN = 'sy_conversation-e2e-token-conversation-01';

interface Started {
  readonly workDir: string;
  readonly resumedSessionId: string | null;
  readonly occurredAt: string;
}

/**
 * Conversations through the gateway, every part real: queue, session-resume, transcript, gateway and
 * daemon as built processes on real NATS and Postgres, the real Claude Code on the mock model
 * (which repeats only the secrets of EARLIER turns it receives, so a remembered secret proves the
 * resume). An issue comment continues the assignment's session; chat messages of one session run
 * one after the other and continue each other.
 */
describe('issue and chat conversations through the gateway (real Claude Code)', () => {
  let system: SystemProcesses;
  let observer: MessagingConnection;
  let gatewayUrl = '';
  let agentId = '';

  const call = gatewayCaller(() => gatewayUrl, TOKEN);
  const api = (method: string, route: string, body?: unknown): Promise<GatewayResponse> => call(method, route, { body });

  const finished = (taskId: string): Promise<LooseJson> => finishedTask(call, taskId);

  const events = async (type: string, taskId: string): Promise<Array<{ occurredAt: string; payload: LooseJson }>> =>
    (await readStream(observer, STREAM_CATALOG.TASK_EVENTS.name))
      .filter((message) => message.subject === subjects.taskEvent({ type: type as 'task.started', taskId, publisher: SERVICE_PUBLISHERS.queue }))
      .map((message) => JSON.parse(message.text) as { occurredAt: string; payload: LooseJson });

  const started = async (taskId: string): Promise<Started> => {
    const [event] = await events('task.started', taskId);
    return { workDir: event!.payload.workDir, resumedSessionId: event!.payload.resumedSessionId, occurredAt: event!.occurredAt };
  };

  /** The CLI session a task ran in, as the daemon pinned it. */
  const sessionOf = async (taskId: string): Promise<string> => {
    const pinned = (await readStream(observer, STREAM_CATALOG.SESSION_EVENTS.name))
      .map((message) => JSON.parse(message.text) as { type: string; payload: { taskId: string; sessionId: string } })
      .find((event) => event.type === 'session.pinned' && event.payload.taskId === taskId);
    if (!pinned) throw new Error(`task ${taskId} pinned no session`);
    return pinned.payload.sessionId;
  };

  /** The agent's replies (the timeline's text), read back through the gateway once projected. */
  const replyOf = async (taskId: string): Promise<string> =>
    until(async () => {
      const { messages } = (await api('GET', `/api/tasks/${taskId}/messages`)).body as { messages: Array<{ type: string; text?: string; content?: string }> };
      const texts = messages.filter((message) => message.type === 'text').map((message) => message.text ?? message.content ?? '');
      return texts.length > 0 ? texts.join('\n') : undefined;
    }, `task ${taskId}'s reply is projected`, 30_000);

  /** Session-resume's index is projected asynchronously: wait until it holds the session. */
  const untilOffered = async (_source: TaskSource, sessionId: string): Promise<void> => {
    await waitForIndexedSession({ databaseUrl: system.databaseUrl, sessionId });
  };

  beforeAll(async () => {
    system = await startSystemProcesses({ services: ['queue', 'session-resume', 'transcript', 'gateway'], gatewayToken: TOKEN });
    ({ gatewayUrl, connection: observer } = system);
    await system.startDaemon({ daemonId: DAEMON_ID });
    await until(async () => ((await api('GET', `/api/runtimes/${RUNTIME_ID}`)).status === 200 ? true : undefined), 'the Claude runtime is listed', 60_000);
    const agent = await api('POST', '/api/agents', { name: 'Claude', runtimeId: RUNTIME_ID, env: { ANTHROPIC_BASE_URL: system.model.url, ANTHROPIC_API_KEY: 'sk-mock-not-a-secret' } });
    expect(agent.status).toBe(201);
    agentId = agent.body.id;
  }, 240_000);

  afterAll(async () => {
    await system?.stop();
  });


  it('issue: the mention after the assignment resumes its session in the same work dir and remembers the description’s secret', async () => {
    const issue = await api('POST', '/api/issues', { title: 'Remember things', description: 'Keep this in mind [[secret:tangerine]] [[scenario:text]]', assigneeAgentId: agentId });
    expect(issue.status).toBe(201);
    const firstTaskId: string = issue.body.tasks[0].taskId;
    expect(await finished(firstTaskId)).toMatchObject({ status: 'completed' });
    const first = await started(firstTaskId);
    const firstSession = await sessionOf(firstTaskId);
    expect(first.resumedSessionId).toBeNull();
    // The comment's task is claimed at once: wait until the index knows the first task ended, or it would answer prior_running.
    await untilOffered({ kind: 'issue', issueId: issue.body.id, trigger: 'mention', commentId: 'any' }, firstSession);

    const comment = await api('POST', `/api/issues/${issue.body.id}/comments`, { body: '@Claude What was the secret? [[scenario:text]]' });
    expect(comment.status).toBe(201);
    const secondTaskId: string = comment.body.tasks[0].taskId;
    expect(await finished(secondTaskId)).toMatchObject({ status: 'completed', source: { kind: 'issue', issueId: issue.body.id, trigger: 'mention', commentId: comment.body.id } });

    expect(await started(secondTaskId)).toMatchObject({ resumedSessionId: firstSession, workDir: first.workDir });
    expect(await replyOf(secondTaskId)).toContain('tangerine');
    expect(await replyOf(firstTaskId)).not.toContain('tangerine');
  }, 300_000);

  it('chat: two messages sent back to back become two tasks that run in order, the second resuming the first', async () => {
    const session = (await api('POST', '/api/chat-sessions', { agentId })).body;
    const one = await api('POST', `/api/chat-sessions/${session.id}/messages`, { body: 'Keep this in mind [[secret:kiwi]] [[scenario:text]]' });
    const two = await api('POST', `/api/chat-sessions/${session.id}/messages`, { body: 'What was the secret? [[scenario:text]]' });
    const taskIds: string[] = [one.body.task.taskId, two.body.task.taskId];
    expect(new Set(taskIds).size).toBe(2);
    for (const taskId of taskIds) expect(await finished(taskId)).toMatchObject({ status: 'completed' });

    // One active task per chat session: the first ended before the second started.
    const [first, second] = await Promise.all(taskIds.map((taskId) => started(taskId)));
    const firstCompletedAt = (await events('task.completed', taskIds[0]!))[0]!.occurredAt;
    expect(Date.parse(firstCompletedAt)).toBeLessThanOrEqual(Date.parse(second!.occurredAt));
    // Claimed the moment the first completed, the second still continues its session (session-resume
    // waits briefly for the first's end to reach its index).
    expect(second).toMatchObject({ resumedSessionId: await sessionOf(taskIds[0]!), workDir: first!.workDir });
    expect(await replyOf(taskIds[1]!)).toContain('kiwi');
  }, 300_000);

  it('chat: a message after the previous one’s task ended resumes its session and remembers its secret', async () => {
    const session = (await api('POST', '/api/chat-sessions', { agentId })).body;
    const source: TaskSource = { kind: 'chat', chatSessionId: session.id, chatMessageId: 'any' };
    const first = await api('POST', `/api/chat-sessions/${session.id}/messages`, { body: 'Keep this in mind [[secret:kiwi]] [[scenario:text]]' });
    const firstTaskId: string = first.body.task.taskId;
    expect(await finished(firstTaskId)).toMatchObject({ status: 'completed' });
    const firstSession = await sessionOf(firstTaskId);
    await untilOffered(source, firstSession);

    const second = await api('POST', `/api/chat-sessions/${session.id}/messages`, { body: 'What was the secret? [[scenario:text]]' });
    const secondTaskId: string = second.body.task.taskId;
    expect(await finished(secondTaskId)).toMatchObject({ status: 'completed' });

    expect(await started(secondTaskId)).toMatchObject({ resumedSessionId: firstSession, workDir: (await started(firstTaskId)).workDir });
    expect(await replyOf(secondTaskId)).toContain('kiwi');

    // Usage of the agent through the gateway: every run of these conversations reported tokens.
    const usage = (await api('GET', `/api/agents/${agentId}/usage`)).body;
    expect(usage.taskCount).toBeGreaterThanOrEqual(4);
    expect(usage.totals.inputTokens).toBeGreaterThan(0);
  }, 300_000);
});
