import type { CommandOf } from '@switchyard/contracts';
import { GatewayTestKit, pluck, type TestWorkspace } from '../../gateway-test.spec-helper';
import { FakeQueue, QUEUE_UNAVAILABLE_REPLY as UNAVAILABLE } from '../tasks/fake-queue.spec-helper';

describe('chat sessions and messages: one task per message, /new (real NATS + Postgres, a fake queue responder)', () => {
  let kit: GatewayTestKit;
  let queue: FakeQueue;
  let alpha: TestWorkspace;
  let beta: TestWorkspace;
  let agentId: string;
  let archivedId: string;

  const sentFor = (chatSessionId: unknown): Array<CommandOf<'task.enqueue'>> =>
    queue.enqueued.filter((command) => command.payload.source.kind === 'chat' && command.payload.source.chatSessionId === chatSessionId);

  beforeAll(async () => {
    kit = await GatewayTestKit.start({ GATEWAY_QUEUE_TIMEOUT_MS: '1000' });
    queue = new FakeQueue(kit);
    queue.start();
    alpha = await kit.workspace('Alpha');
    beta = await kit.workspace('Beta');
    const runtimeId = (await kit.registerRuntime(alpha.id)).runtimeId;
    agentId = (await kit.as(alpha.token).post('/api/agents', { name: 'Helper', runtimeId })).body.id;
    archivedId = (await kit.as(alpha.token).post('/api/agents', { name: 'Gone', runtimeId })).body.id;
    await kit.as(alpha.token).delete(`/api/agents/${archivedId}`);
  });
  afterAll(async () => {
    await queue?.stop();
    await kit?.stop();
  });

  it('creates, lists and reads sessions; refuses unknown or archived agents and bad input, writing nothing', async () => {
    const api = kit.as(alpha.token);
    const session = await api.post('/api/chat-sessions', { agentId, title: 'Debugging' });
    expect(session.status).toBe(201);
    expect(session.body).toMatchObject({ agentId, title: 'Debugging', forceFreshSession: false });
    expect(pluck((await api.get(`/api/chat-sessions?agentId=${agentId}`)).body.chatSessions, 'id')).toContain(session.body.id);
    expect((await api.get(`/api/chat-sessions/${session.body.id}`)).body.id).toBe(session.body.id);

    const before = await kit.count('chat_session');
    expect((await api.post('/api/chat-sessions', { agentId: 'nope' })).status).toBe(404);
    expect((await api.post('/api/chat-sessions', { agentId: archivedId })).body.error.code).toBe('agent_archived');
    expect((await api.post('/api/chat-sessions', {})).status).toBe(400);
    expect(await kit.count('chat_session')).toBe(before);

    const sent = queue.enqueued.length;
    for (const body of [{}, { body: '   ' }, { body: 'x', attachments: [{ name: '' }] }, { body: 'x', attachments: [{ name: 'a', url: 'file:///etc/passwd' }] }, { body: 'x', role: 'agent' }]) {
      expect((await api.post(`/api/chat-sessions/${session.body.id}/messages`, body)).status).toBe(400);
    }
    expect((await api.post('/api/chat-sessions/nope/messages', { body: 'hi' })).status).toBe(404);
    expect((await api.get(`/api/chat-sessions/${session.body.id}/messages`)).body.messages).toEqual([]);
    expect(queue.enqueued.length).toBe(sent);
  });

  it('every message is its own task with the chat source; the prompt is the text plus attachment names', async () => {
    const api = kit.as(alpha.token);
    const session = await api.post('/api/chat-sessions', { agentId });
    const first = await api.post(`/api/chat-sessions/${session.body.id}/messages`, {
      body: 'Why does the build fail?',
      attachments: [{ name: 'build.log', mediaType: 'text/plain' }],
    });
    const second = await api.post(`/api/chat-sessions/${session.body.id}/messages`, { body: 'Also check the lint step' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ role: 'user', body: 'Why does the build fail?', task: { agentId, trigger: 'chat', taskId: expect.any(String) } });
    expect(second.body.task.taskId).not.toBe(first.body.task.taskId);
    const sends = sentFor(session.body.id);
    expect(sends.map((command) => command.payload.source)).toEqual([
      { kind: 'chat', chatSessionId: session.body.id, chatMessageId: first.body.id },
      { kind: 'chat', chatSessionId: session.body.id, chatMessageId: second.body.id },
    ]);
    expect(sends[0]!.payload).toMatchObject({ agentId, priority: 2, forceFreshSession: false, prompt: 'Why does the build fail?\n\nAttachments:\n- build.log (text/plain)' });
    expect(sends[1]!.payload.prompt).toBe('Also check the lint step');
    expect(pluck((await api.get(`/api/chat-sessions/${session.body.id}/messages`)).body.messages, 'id')).toEqual([first.body.id, second.body.id]);
  });

  it('/new creates no task; the next message’s task forces a fresh session, the one after does not', async () => {
    const api = kit.as(alpha.token);
    const session = await api.post('/api/chat-sessions', { agentId });
    await api.post(`/api/chat-sessions/${session.body.id}/messages`, { body: 'hello' });
    const reset = await api.post(`/api/chat-sessions/${session.body.id}/messages`, { body: '/new' });
    expect(reset.status).toBe(201);
    expect(reset.body.task).toBeNull();
    expect((await api.get(`/api/chat-sessions/${session.body.id}`)).body.forceFreshSession).toBe(true);
    expect(sentFor(session.body.id)).toHaveLength(1);
    await api.post(`/api/chat-sessions/${session.body.id}/messages`, { body: 'start over' });
    await api.post(`/api/chat-sessions/${session.body.id}/messages`, { body: 'and continue' });
    expect(sentFor(session.body.id).map((command) => [command.payload.prompt, command.payload.forceFreshSession])).toEqual([
      ['hello', false],
      ['start over', true],
      ['and continue', false],
    ]);
    expect((await api.get(`/api/chat-sessions/${session.body.id}`)).body.forceFreshSession).toBe(false);
  });

  it('with the queue gone: 503, the message is kept; the retry (same Idempotency-Key) re-sends the same request id and makes one task', async () => {
    const api = kit.as(alpha.token);
    const session = await api.post('/api/chat-sessions', { agentId });
    const headers = { 'idempotency-key': 'chat-retry-1' };
    await queue.stop();
    let failed;
    try {
      failed = await api.post(`/api/chat-sessions/${session.body.id}/messages`, { body: 'are you there?' }, headers);
    } finally {
      queue.start();
    }
    expect(failed.status).toBe(503);
    expect(failed.body.error).toMatchObject({ code: 'queue_unavailable', details: { saved: { kind: 'chat_message' } } });
    const retried = await api.post(`/api/chat-sessions/${session.body.id}/messages`, { body: 'are you there?' }, headers);
    expect(retried.status).toBe(201);
    expect(retried.body.id).toBe(failed.body.error.details.saved.id);
    const again = await api.post(`/api/chat-sessions/${session.body.id}/messages`, { body: 'are you there?' }, headers);
    expect(again.body).toEqual(retried.body);
    const sends = sentFor(session.body.id);
    expect(sends).toHaveLength(1);
    expect((await api.get(`/api/chat-sessions/${session.body.id}/messages`)).body.messages).toHaveLength(1);
    expect(await kit.query('select count(*)::int as count from agent_task_queue where chat_session_id = $1', [session.body.id])).toEqual([{ count: 1 }]);
  });

  it('isolates workspaces', async () => {
    const session = await kit.as(alpha.token).post('/api/chat-sessions', { agentId });
    const other = kit.as(beta.token);
    expect((await other.get(`/api/chat-sessions/${session.body.id}`)).status).toBe(404);
    expect((await other.get(`/api/chat-sessions/${session.body.id}/messages`)).status).toBe(404);
    expect((await other.post(`/api/chat-sessions/${session.body.id}/messages`, { body: 'hi' })).status).toBe(404);
    expect((await other.post('/api/chat-sessions', { agentId })).status).toBe(404);
    expect((await other.get('/api/chat-sessions')).body.chatSessions).toEqual([]);
    expect((await other.delete(`/api/chat-sessions/${session.body.id}`)).status).toBe(404);
    expect((await kit.as(alpha.token).get(`/api/chat-sessions/${session.body.id}`)).status).toBe(200);
    expect(sentFor(session.body.id)).toEqual([]);
  });

  it('deleting a session cancels its unfinished tasks first, then removes it with its messages; a queue that cannot cancel deletes nothing', async () => {
    const api = kit.as(alpha.token);
    const session = await api.post('/api/chat-sessions', { agentId });
    const first = await api.post(`/api/chat-sessions/${session.body.id}/messages`, { body: 'first question' });
    const second = await api.post(`/api/chat-sessions/${session.body.id}/messages`, { body: 'second question' });
    const [finishedId, liveId] = [first.body.task.taskId as string, second.body.task.taskId as string];
    await kit.setTaskStatus(finishedId, 'completed');
    await kit.setTaskStatus(liveId, 'running');
    const keep = await api.post('/api/chat-sessions', { agentId });
    const kept = await api.post(`/api/chat-sessions/${keep.body.id}/messages`, { body: 'unrelated' });

    queue.refusal = UNAVAILABLE;
    expect((await api.delete(`/api/chat-sessions/${session.body.id}`)).body.error).toMatchObject({ code: 'queue_unavailable' });
    queue.refusal = undefined;
    expect((await api.get(`/api/chat-sessions/${session.body.id}/messages`)).body.messages).toHaveLength(2);
    expect(await kit.query('select status from agent_task_queue where task_id = $1', [liveId])).toEqual([{ status: 'running' }]);

    expect((await api.delete(`/api/chat-sessions/${session.body.id}`)).status).toBe(204);
    expect((await api.get(`/api/chat-sessions/${session.body.id}`)).status).toBe(404);
    expect(await kit.query('select count(*)::int as count from chat_message where chat_session_id = $1', [session.body.id])).toEqual([{ count: 0 }]);
    expect(await kit.query('select task_id, status from agent_task_queue where task_id = any($1) order by task_id', [[finishedId, liveId].sort()])).toEqual(
      [
        { task_id: finishedId, status: 'completed' },
        { task_id: liveId, status: 'cancelled' },
      ].sort((left, right) => left.task_id.localeCompare(right.task_id)),
    );
    expect(queue.bulkCancels.at(-1)?.payload).toMatchObject({
      scope: { kind: 'chat_session', chatSessionId: session.body.id },
      reason: 'the chat session was deleted',
      requestedBy: { kind: 'user' },
    });
    expect(await kit.query('select status from agent_task_queue where task_id = $1', [kept.body.task.taskId])).toEqual([{ status: 'queued' }]);
    expect((await api.get(`/api/chat-sessions/${keep.body.id}/messages`)).body.messages).toHaveLength(1);
    expect((await api.delete(`/api/chat-sessions/${session.body.id}`)).status).toBe(404);
  });
});
