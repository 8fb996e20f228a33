import { SERVICE_PUBLISHERS, createEvent, subjects, uuidv7 } from '@switchyard/contracts';
import { publish } from '@switchyard/messaging';
import { SECRET_SAMPLES } from '@switchyard/redaction';
import { GatewayTestKit, waitUntil, type TestWorkspace } from '../../gateway-test.spec-helper';
import { connectLiveClient, type LiveTestClient } from '../../edge/live/live-client.spec-helper';
import type { ServerFrame } from '../../edge/live/live.frames';
import type { WorkspaceNotice } from '../notices/workspace-notice';
import { FakeQueue } from '../tasks/fake-queue.spec-helper';

type WorkspaceFrame = Extract<ServerFrame, { type: 'workspace' }>;

describe('workspace notices on /api/live and agent replies in chat (real NATS + Postgres, a fake queue responder)', () => {
  let kit: GatewayTestKit;
  let queue: FakeQueue;
  let alpha: TestWorkspace;
  let beta: TestWorkspace;
  let agentId: string;
  const clients: LiveTestClient[] = [];

  const noticesOf = (client: LiveTestClient): WorkspaceFrame[] => client.frames.filter((frame): frame is WorkspaceFrame => frame.type === 'workspace');
  const hasNotice = (client: LiveTestClient, kind: WorkspaceNotice['kind'], id: string): boolean => noticesOf(client).some((frame) => frame.kind === kind && frame.id === id);

  async function subscribed(token: string): Promise<LiveTestClient> {
    const client = await connectLiveClient(kit.gateway.url, { token });
    clients.push(client);
    client.send({ type: 'subscribe_workspace' });
    await client.waitFor((frames) => frames.some((frame) => frame.type === 'subscribed_workspace'));
    return client;
  }

  /** Publishes `task.completed` the way the queue's outbox relay does (msg id = event id). */
  const complete = async (taskId: string, output: string | null, eventId?: string): Promise<void> => {
    const envelope = createEvent({ type: 'task.completed', payload: { taskId, attempt: 1, sessionId: null, output, durationMs: 5, usage: [], repositories: [] } });
    const sent = eventId ? { ...envelope, eventId } : envelope;
    await publish(kit.messaging, { subject: subjects.forEvent(sent, SERVICE_PUBLISHERS.queue), data: sent, messageId: sent.eventId });
  };

  beforeAll(async () => {
    kit = await GatewayTestKit.start({ GATEWAY_QUEUE_TIMEOUT_MS: '1000' });
    queue = new FakeQueue(kit);
    queue.start();
    alpha = await kit.workspace('Alpha');
    beta = await kit.workspace('Beta');
    const runtimeId = (await kit.registerRuntime(alpha.id)).runtimeId;
    agentId = (await kit.as(alpha.token).post('/api/agents', { name: 'Helper', runtimeId })).body.id;
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await queue?.stop();
    await kit?.stop();
  });

  it('tells the workspace’s clients, and only them, about issues, comments and chat messages: ids and kinds, no bodies', async () => {
    const insider = await subscribed(alpha.token);
    const outsider = await subscribed(beta.token);
    const api = kit.as(alpha.token);

    const issue = (await api.post<{ id: string }>('/api/issues', { title: 'Secret plan' })).body;
    await api.patch(`/api/issues/${issue.id}`, { title: 'Secret plan, v2' });
    const comment = (await api.post(`/api/issues/${issue.id}/comments`, { body: 'hush' })).body;
    const session = (await api.post('/api/chat-sessions', { agentId })).body;
    const message = (await api.post(`/api/chat-sessions/${session.id}/messages`, { body: 'hello there' })).body;
    await api.delete(`/api/issues/${issue.id}`);

    await insider.waitFor(() => hasNotice(insider, 'issue.deleted', issue.id));
    expect(noticesOf(insider).map(({ at: _at, ...rest }) => rest)).toEqual([
      { type: 'workspace', kind: 'issue.created', id: issue.id },
      { type: 'workspace', kind: 'issue.updated', id: issue.id },
      { type: 'workspace', kind: 'comment.created', id: comment.id, issueId: issue.id },
      { type: 'workspace', kind: 'chat_session.created', id: session.id, chatSessionId: session.id },
      { type: 'workspace', kind: 'chat_message.created', id: message.id, chatSessionId: session.id },
      { type: 'workspace', kind: 'issue.deleted', id: issue.id },
    ]);
    for (const frame of noticesOf(insider)) expect(Number.isNaN(Date.parse(frame.at))).toBe(false);
    const received = JSON.stringify(insider.frames);
    for (const body of ['Secret plan', 'hush', 'hello there']) expect(received).not.toContain(body);

    // Beta's own change arrives after Alpha's: had Alpha's leaked, it would be there by now.
    const own = (await kit.as(beta.token).post<{ id: string }>('/api/issues', { title: 'Beta issue' })).body;
    await outsider.waitFor(() => hasNotice(outsider, 'issue.created', own.id));
    expect(noticesOf(outsider).map((frame) => frame.id)).toEqual([own.id]);
  });

  it('a completed chat task answers in its session once, however often the completion comes', async () => {
    const viewer = await subscribed(alpha.token);
    const api = kit.as(alpha.token);
    const session = (await api.post('/api/chat-sessions', { agentId })).body;
    const posted = (await api.post(`/api/chat-sessions/${session.id}/messages`, { body: 'Why does the build fail?' })).body;
    const taskId: string = posted.task.taskId;

    await complete(taskId, '  The lockfile is stale.\n');
    await waitUntil(async () => (await kit.query(`select 1 from chat_message where chat_session_id = $1 and role = 'agent'`, [session.id])).length === 1, 'the agent replied');
    // A redelivery, and a replay under another event id: nothing new.
    await complete(taskId, '  The lockfile is stale.\n');
    await complete(taskId, 'The lockfile is stale.', uuidv7());
    await new Promise((resolve) => setTimeout(resolve, 500));

    const messages = (await api.get(`/api/chat-sessions/${session.id}/messages`)).body.messages as Array<{ id: string; role: string; body: string }>;
    expect(messages.map(({ role, body }) => ({ role, body }))).toEqual([
      { role: 'user', body: 'Why does the build fail?' },
      { role: 'agent', body: 'The lockfile is stale.' },
    ]);
    const reply = messages[1]!;
    await viewer.waitFor(() => hasNotice(viewer, 'chat_message.created', reply.id));
    expect(noticesOf(viewer).filter((frame) => frame.kind === 'chat_message.created').map((frame) => frame.id)).toEqual([posted.id, reply.id]);
    expect(noticesOf(viewer).at(-1)).toMatchObject({ chatSessionId: session.id });
  });

  it('a chat reply is the task’s output redacted as its timeline is: secret patterns and the agent’s env values', async () => {
    const api = kit.as(alpha.token);
    const runtimeId = (await kit.registerRuntime(alpha.id)).runtimeId;
    const keeper = (await api.post('/api/agents', { name: 'Keeper', runtimeId, env: { VAULT_PASSPHRASE: 'open sesame 42' } })).body.id as string;
    const session = (await api.post('/api/chat-sessions', { agentId: keeper })).body;
    const posted = (await api.post(`/api/chat-sessions/${session.id}/messages`, { body: 'What is set up?' })).body;
    const anthropicKey = SECRET_SAMPLES.find((sample) => sample.kind === 'anthropic_api_key')!.secret;

    await complete(posted.task.taskId as string, `The key is ${anthropicKey} and the vault opens with open sesame 42.`);
    await waitUntil(async () => (await kit.query(`select 1 from chat_message where chat_session_id = $1 and role = 'agent'`, [session.id])).length === 1, 'the agent replied');

    const messages = (await api.get(`/api/chat-sessions/${session.id}/messages`)).body.messages as Array<{ role: string; body: string }>;
    expect(messages.at(-1)).toMatchObject({ role: 'agent', body: 'The key is [REDACTED:anthropic_api_key] and the vault opens with [REDACTED:known_secret].' });
  });

  it('a completed task of an issue writes no chat message', async () => {
    const issue = (await kit.as(alpha.token).post<{ tasks: Array<{ taskId: string }> }>('/api/issues', { title: 'Not chat', assigneeAgentId: agentId })).body;
    const before = await kit.count('chat_message');
    await complete(issue.tasks[0]!.taskId, 'done');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await kit.count('chat_message')).toBe(before);
  });
});
