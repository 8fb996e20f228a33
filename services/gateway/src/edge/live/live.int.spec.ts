import { SERVICE_PUBLISHERS, createEvent, messageIds, subjects, type AgentMessage, type EventOf } from '@switchyard/contracts';
import { publish } from '@switchyard/messaging';
import { SECRET_SAMPLES } from '@switchyard/redaction';
import { hashApiToken } from '../../workspace/tokens/api-token.codec';
import { useLiveGateway } from './live-gateway.spec-helper';
import { connectLiveClient, seqsReceived, type LiveTestClient } from './live-client.spec-helper';
import { LIVE_CLOSE_CODES } from './live.frames';

const TOKEN = 'sy_live-test-token-live-test-token-0001';
const OTHER_TOKEN = 'sy_other-workspace-token-other-token-02';

describe('gateway live WebSocket (real NATS + Postgres)', () => {
  const bed = useLiveGateway({ token: TOKEN, taskPrefix: 'task-live' });
  const newTask = (workspaceId?: string) => bed.newTask(workspaceId);

  beforeAll(async () => {
    await bed.database.query(`insert into workspace (id, name) values ('other', 'Other')`);
    // A member of another workspace, with a token there.
    await bed.database.query(`insert into app_user (id, email, display_name) values ('user-other', 'other@example.com', 'Other')`);
    await bed.database.query(`insert into workspace_member (workspace_id, user_id, role) values ('other', 'user-other', 'owner')`);
    await bed.database.query(`insert into api_token (id, workspace_id, user_id, name, token_hash) values ('other-token', 'other', 'user-other', 'other', $1)`, [hashApiToken(OTHER_TOKEN)]);
  });

  /** The daemon whose run publishes the timelines here. */
  const DAEMON_ID = 'daemon-live';

  function messageEvent(taskId: string, seq: number, message: AgentMessage): EventOf<'task.message'> {
    return createEvent({ type: 'task.message', payload: { taskId, seq, attempt: 1, message } });
  }

  async function publishMessage(taskId: string, seq: number, message: AgentMessage = { type: 'text', text: `line ${seq}` }): Promise<EventOf<'task.message'>> {
    const event = messageEvent(taskId, seq, message);
    await publish(bed.bus, { subject: subjects.forEvent(event, DAEMON_ID), data: event, messageId: messageIds.taskMessage({ publisher: DAEMON_ID, taskId, seq }) });
    return event;
  }

  /** What the projector would have written for these events. */
  async function projectIntoView(events: ReadonlyArray<EventOf<'task.message'>>): Promise<void> {
    for (const event of events) {
      const message = event.payload.message;
      if (message.type !== 'text') continue;
      await bed.database.query(`insert into task_message (id, task_id, seq, attempt, type, content, created_at) values ($1, $2, $3, 1, 'text', $4, $5)`, [
        event.eventId,
        event.payload.taskId,
        event.payload.seq,
        message.text,
        event.occurredAt,
      ]);
    }
  }

  /** A client authenticated with `token` at the upgrade, or with none when it is null. */
  function client(token: string | null = TOKEN): Promise<LiveTestClient> {
    return bed.connect(token);
  }

  it('streams a task from the start: timeline rows, activity and status changes, in seq order', async () => {
    const taskId = await newTask();
    await publishMessage(taskId, 0, { type: 'status', state: 'started', sessionId: 'session-1' });
    await publishMessage(taskId, 1, { type: 'tool-use', tool: 'Bash', callId: 'c1', input: { command: 'ls' } });
    const viewer = await client();
    viewer.send({ type: 'subscribe', taskId });
    await viewer.waitFor((frames) => seqsReceived(frames, taskId).length === 2);

    await publishMessage(taskId, 2, { type: 'tool-result', callId: 'c1', output: 'a.txt', status: 'ok' });
    await publishMessage(taskId, 3, { type: 'text', text: 'done' });
    const completed = createEvent({ type: 'task.completed', payload: { taskId, attempt: 1, sessionId: 'session-1', output: 'done', durationMs: 5, usage: [], repositories: [] } });
    await publish(bed.bus, { subject: subjects.forEvent(completed, SERVICE_PUBLISHERS.queue), data: completed, messageId: completed.eventId });

    await viewer.waitFor((frames) => frames.some((frame) => frame.type === 'task' && frame.status === 'completed'));
    expect(seqsReceived(viewer.frames, taskId)).toEqual([0, 1, 2, 3]);
    expect(viewer.frames[0]).toEqual({ type: 'ready', workspaceId: 'default' });
    expect(viewer.frames.find((frame) => frame.type === 'activity')).toMatchObject({ seq: 0, message: { type: 'status', sessionId: 'session-1' } });
    // The result names no tool; the feed fills it in from the call.
    expect(viewer.frames.find((frame) => frame.type === 'timeline' && frame.entry.type === 'tool_result')).toMatchObject({ entry: { tool: 'Bash', callId: 'c1', output: 'a.txt' } });
  });

  it('resumes while the projector lags behind the stream, with no gap and no duplicate', async () => {
    const taskId = await newTask();
    const events = [];
    for (let seq = 0; seq < 40; seq += 1) events.push(await publishMessage(taskId, seq));
    // The projector has caught up to seq 24 only.
    await projectIntoView(events.slice(0, 25));

    const viewer = await client();
    viewer.send({ type: 'subscribe', taskId, afterSeq: 9 });
    await viewer.waitFor((frames) => seqsReceived(frames, taskId).includes(39));
    for (let seq = 40; seq < 45; seq += 1) await publishMessage(taskId, seq);
    await viewer.waitFor((frames) => seqsReceived(frames, taskId).includes(44));

    expect(seqsReceived(viewer.frames, taskId)).toEqual(Array.from({ length: 35 }, (_, index) => index + 10));
  });

  it('serves rows the stream no longer holds from the view', async () => {
    const taskId = await newTask();
    // Published elsewhere (e.g. aged out of the stream): only the view has them.
    await projectIntoView([0, 1, 2].map((seq) => messageEvent(taskId, seq, { type: 'text', text: `old ${seq}` })));
    await publishMessage(taskId, 3);

    const viewer = await client();
    viewer.send({ type: 'subscribe', taskId });
    await viewer.waitFor((frames) => seqsReceived(frames, taskId).includes(3));

    expect(seqsReceived(viewer.frames, taskId)).toEqual([0, 1, 2, 3]);
  });

  it('carries a daemon notice as a timeline row, from the view and live from the stream alike', async () => {
    const taskId = await newTask();
    // Seq 0 aged out of the stream (only the view has it); seq 1 is live.
    const old = messageEvent(taskId, 0, { type: 'notice', code: 'resume_skipped', text: 'The earlier session could not be resumed; started afresh.' });
    await bed.database.query(`insert into task_message (id, task_id, seq, attempt, type, content, notice_code, created_at) values ($1, $2, 0, 1, 'notice', $3, $4, $5)`, [
      old.eventId,
      taskId,
      'The earlier session could not be resumed; started afresh.',
      'resume_skipped',
      old.occurredAt,
    ]);
    await publishMessage(taskId, 1, { type: 'notice', code: 'repository_work', text: 'api: branch switchyard/task-1, 2 files changed.' });

    const viewer = await client();
    viewer.send({ type: 'subscribe', taskId });
    await viewer.waitFor((frames) => seqsReceived(frames, taskId).includes(1));

    const entries = viewer.frames.flatMap((frame) => (frame.type === 'timeline' ? [frame.entry] : []));
    expect(entries.map((entry) => [entry.seq, entry.type, entry.noticeCode, entry.content])).toEqual([
      [0, 'notice', 'resume_skipped', 'The earlier session could not be resumed; started afresh.'],
      [1, 'notice', 'repository_work', 'api: branch switchyard/task-1, 2 files changed.'],
    ]);
    expect(entries.every((entry) => entry.errorCode === null && entry.tool === null)).toBe(true);
  });

  it('a client away for 30 s while 1,000 events flow resumes from its last seq and ends with all 1,000, in order, once each', async () => {
    const taskId = await newTask();
    const first = await client();
    first.send({ type: 'subscribe', taskId });
    await first.waitFor((frames) => frames.some((frame) => frame.type === 'subscribed'));
    for (let seq = 0; seq < 100; seq += 1) await publishMessage(taskId, seq);
    await first.waitFor((frames) => seqsReceived(frames, taskId).length === 100);
    const received = seqsReceived(first.frames, taskId);
    await first.close();

    // 900 more over the 30 s the client is away.
    const awayUntil = Date.now() + 30_000;
    for (let seq = 100; seq < 1_000; seq += 1) {
      await publishMessage(taskId, seq);
      const pause = (awayUntil - Date.now()) / (1_000 - seq);
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    }
    while (Date.now() < awayUntil) await new Promise((resolve) => setTimeout(resolve, 100));

    const second = await client();
    second.send({ type: 'subscribe', taskId, afterSeq: received[received.length - 1] });
    await second.waitFor((frames) => seqsReceived(frames, taskId).length === 900);
    const all = [...received, ...seqsReceived(second.frames, taskId)];

    expect(all).toEqual(Array.from({ length: 1_000 }, (_, index) => index));
  }, 90_000);

  it('never lets a secret of the corpus reach the client, in text, tool input, tool output or a notice', async () => {
    const taskId = await newTask();
    let seq = 0;
    for (const sample of SECRET_SAMPLES) {
      await publishMessage(taskId, seq++, { type: 'text', text: sample.text });
      await publishMessage(taskId, seq++, { type: 'tool-use', tool: 'Bash', callId: `c${seq}`, input: { command: sample.text } });
      await publishMessage(taskId, seq++, { type: 'tool-result', callId: `c${seq - 1}`, output: sample.text, status: 'ok' });
      await publishMessage(taskId, seq++, { type: 'notice', code: 'repository_work', text: `pushed: ${sample.text}` });
    }
    const viewer = await client();
    viewer.send({ type: 'subscribe', taskId });
    await viewer.waitFor((frames) => seqsReceived(frames, taskId).length === seq);

    // Every string the client got, unescaped (a PEM block holds newlines).
    const strings: string[] = [];
    const collect = (value: unknown): void => {
      if (typeof value === 'string') strings.push(value);
      else if (value && typeof value === 'object') Object.values(value).forEach(collect);
    };
    collect(viewer.frames);
    const received = strings.join('\n');
    expect(new Set(SECRET_SAMPLES.map((sample) => sample.kind)).size).toBeGreaterThanOrEqual(20);
    for (const sample of SECRET_SAMPLES) expect({ kind: sample.kind, leaked: received.includes(sample.secret) }).toEqual({ kind: sample.kind, leaked: false });
  });

  it('keeps workspaces apart: another workspace cannot subscribe to a task, nor see its status changes', async () => {
    const taskId = await newTask('default');
    const outsider = await client(OTHER_TOKEN);
    outsider.send({ type: 'subscribe', taskId });
    outsider.send({ type: 'subscribe_workspace' });
    const insider = await client();
    insider.send({ type: 'subscribe_workspace' });
    await insider.waitFor((frames) => frames.some((frame) => frame.type === 'subscribed_workspace'));
    await outsider.waitFor((frames) => frames.some((frame) => frame.type === 'subscribed_workspace'));

    const started = createEvent({ type: 'task.started', payload: { taskId, attempt: 1, daemonId: 'd', runtimeId: 'runtime-1', workDir: '/w', resumedSessionId: null, leaseExpiresAt: new Date(Date.now() + 60_000).toISOString() } });
    await publish(bed.bus, { subject: subjects.forEvent(started, SERVICE_PUBLISHERS.queue), data: started, messageId: started.eventId });
    await insider.waitFor((frames) => frames.some((frame) => frame.type === 'task' && frame.taskId === taskId && frame.status === 'running'));

    expect(outsider.frames).toContainEqual({ type: 'error', code: 'not_found', message: `no task ${taskId}`, taskId });
    expect(outsider.frames.some((frame) => frame.type === 'task' || frame.type === 'timeline')).toBe(false);
  });

  it('refuses a bad token at the upgrade, and closes a socket that never authenticates', async () => {
    await expect(connectLiveClient(bed.gateway.url, { token: 'sy_not-a-real-token-not-a-real-token' })).rejects.toThrow(/401/);
    const silent = await client(null);
    silent.send({ type: 'subscribe', taskId: 'anything' });
    await silent.waitFor((frames) => frames.some((frame) => frame.type === 'error' && frame.code === 'unauthenticated'));
    expect(await silent.closed).toBe(LIVE_CLOSE_CODES.unauthenticated);
  }, 15_000);

  it('accepts a token sent in an auth frame (browsers cannot set the header)', async () => {
    const browser = await client(null);
    browser.send({ type: 'auth', token: TOKEN });
    await browser.waitFor((frames) => frames.some((frame) => frame.type === 'ready'));
    browser.send({ type: 'subscribe', taskId: 42 });
    await browser.waitFor((frames) => frames.some((frame) => frame.type === 'error' && frame.code === 'bad_frame'));
  });

});
