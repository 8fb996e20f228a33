import { createEvent, HEADERS, STREAM_CATALOG, type AgentMessage, type TaskMessageEvent } from '@switchyard/contracts';
import { type MessagingConnection } from '@switchyard/messaging';
import { closeConnectionAbruptly, consumerState, readStream } from '@switchyard/messaging/testing';
import { SECRET_SAMPLES } from '@switchyard/redaction';
import { itOnPostgresServer, uniqueNamespace } from '@switchyard/testing';
import { RebuildRefusedError, rebuildTimeline } from '../rebuild/timeline.rebuild';
import { TEST_PROJECTOR_TUNING, TIMELINE_TEST_DAEMON_ID, TimelineTestBed, waitFor } from '../timeline-test.spec-helper';
import { TIMELINE_CONSUMER_NAME } from './timeline-consumer.definition';
import type { RunningTimelineProjector } from './timeline.projector';

/** Every string anywhere in a row (jsonb included), for "no secret anywhere" checks. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value instanceof Date) return [];
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsOf);
  return [];
}

describe('transcript projector (real NATS + Postgres)', () => {
  let bed: TimelineTestBed;
  let projector: RunningTimelineProjector;

  beforeAll(async () => {
    bed = await TimelineTestBed.create();
    ({ projector } = await bed.startProjector());
  });
  afterAll(async () => {
    await bed?.close();
  });

  it('writes one row per timeline message, ordered by seq whatever the arrival order, and none for status or log', async () => {
    // Given a task's messages published out of order, with status and log messages among them and a daemon notice
    const taskId = uniqueNamespace('task');
    const messages: Record<number, AgentMessage> = {
      0: { type: 'status', state: 'started', sessionId: 'session-1' },
      1: { type: 'text', text: 'Looking at the failing test.' },
      2: { type: 'tool-use', tool: 'Bash', callId: 'call-1', input: { command: 'npm test', timeout: 60 } },
      3: { type: 'log', level: 'warn', text: 'deprecated flag' },
      4: { type: 'tool-result', callId: 'call-1', output: '1 failing', status: 'error', outputTruncated: true },
      5: { type: 'thinking', text: 'The fixture path is wrong.' },
      6: { type: 'error', code: 'tool_failed', message: 'npm exited 1' },
      7: { type: 'notice', code: 'repository_work', text: 'api: branch switchyard/task-1 from 1a2b3c4 to 5d6e7f8, 2 files changed.' },
    };
    const published: Record<number, TaskMessageEvent> = {};
    for (const seq of [5, 7, 2, 6, 0, 4, 1, 3]) published[seq] = await bed.publishMessage(taskId, seq, messages[seq]!);
    // When the projector has caught up
    await bed.caughtUp(projector);
    // Then reading by seq gives the timeline, each row with its event's id and time
    const rows = await bed.rows(taskId);
    expect(rows.map((row) => [row['seq'], row['type']])).toEqual([
      [1, 'text'],
      [2, 'tool_use'],
      [4, 'tool_result'],
      [5, 'thinking'],
      [6, 'error'],
      [7, 'notice'],
    ]);
    expect(rows[1]).toMatchObject({ id: published[2]!.eventId, tool: 'Bash', call_id: 'call-1', input: { command: 'npm test', timeout: 60 }, attempt: 1 });
    expect(rows[2]).toMatchObject({ tool: 'Bash', call_id: 'call-1', output: '1 failing', output_truncated: true, tool_status: 'error', content: null });
    expect(rows[4]).toMatchObject({ error_code: 'tool_failed', content: 'npm exited 1', notice_code: null });
    expect(rows[5]).toMatchObject({
      id: published[7]!.eventId,
      notice_code: 'repository_work',
      content: 'api: branch switchyard/task-1 from 1a2b3c4 to 5d6e7f8, 2 files changed.',
      error_code: null,
      tool: null,
    });
    expect((rows[0]!['created_at'] as Date).toISOString()).toBe(published[1]!.occurredAt);
  });

  it('stores one row per (task, seq) when events are duplicated, republished or re-created', async () => {
    const taskId = uniqueNamespace('task');
    // Given an event, the same event under other message ids (past the JetStream dedupe), and a
    // re-created envelope for the same seq
    const first = await bed.publishMessage(taskId, 0, { type: 'text', text: 'original' });
    await bed.publishEnvelope(first, { messageId: 'republished-1' });
    await bed.publishEnvelope(first, { messageId: 'republished-2' });
    const recreated = createEvent({ type: 'task.message', payload: { taskId, seq: 0, attempt: 1, message: { type: 'text', text: 'recreated' } } });
    await bed.publishEnvelope(recreated, { messageId: 'recreated' });
    await bed.publishMessage(taskId, 1, { type: 'text', text: 'next' });
    // When the projector has caught up
    await bed.caughtUp(projector);
    // Then each seq has exactly one row: the first event's
    expect((await bed.rows(taskId)).map((row) => [row['seq'], row['id'], row['content']])).toEqual([
      [0, first.eventId, 'original'],
      [1, expect.any(String), 'next'],
    ]);
  });

  itOnPostgresServer('stores one row per event when deliveries time out and are redelivered', async () => {
    const taskId = uniqueNamespace('task');
    const session = await bed.session();
    try {
      // Given the table locked against inserts for longer than the ack wait
      await session.query('begin');
      await session.query('lock table task_message in share mode');
      for (let seq = 0; seq < 20; seq += 1) await bed.publishMessage(taskId, seq, { type: 'text', text: `message ${seq}` });
      // When the server redelivers the blocked batch before the lock goes
      const consumer = () => consumerState(bed.connection, { stream: STREAM_CATALOG.TASK_EVENTS.name, name: TIMELINE_CONSUMER_NAME });
      await waitFor(async () => (await consumer()).redelivered > 0, { description: 'a redelivery' });
      await session.query('commit');
      await bed.caughtUp(projector);
    } finally {
      await session.end();
    }
    // Then every event is one row
    expect((await bed.rows(taskId)).map((row) => row['seq'])).toEqual(Array.from({ length: 20 }, (_, seq) => seq));
  });

  it('names a tool result’s tool from its call in an earlier batch, and completes a result stored before its call', async () => {
    const taskId = uniqueNamespace('task');
    // Given a call already stored, then its result without a tool name
    await bed.publishMessage(taskId, 0, { type: 'tool-use', tool: 'Bash', callId: 'c1', input: 'ls' });
    await bed.caughtUp(projector);
    await bed.publishMessage(taskId, 1, { type: 'tool-result', callId: 'c1', output: 'a b', status: 'ok' });
    // And a result that arrives (and is stored) before its call
    await bed.publishMessage(taskId, 3, { type: 'tool-result', callId: 'c2', output: 'contents', status: 'ok' });
    await bed.caughtUp(projector);
    expect((await bed.rows(taskId)).find((row) => row['seq'] === 3)).toMatchObject({ tool: null });
    await bed.publishMessage(taskId, 2, { type: 'tool-use', tool: 'Read', callId: 'c2', input: { path: 'a' } });
    await bed.caughtUp(projector);
    // Then both results carry their call's tool
    expect((await bed.rows(taskId)).map((row) => [row['seq'], row['type'], row['tool'], row['call_id']])).toEqual([
      [0, 'tool_use', 'Bash', 'c1'],
      [1, 'tool_result', 'Bash', 'c1'],
      [2, 'tool_use', 'Read', 'c2'],
      [3, 'tool_result', 'Read', 'c2'],
    ]);
  });

  it('keeps the latest usage per (task, attempt, provider, model), whatever the arrival order', async () => {
    const taskId = uniqueNamespace('task');
    await bed.publishMessage(taskId, 8, { type: 'usage', provider: 'anthropic', model: 'opus', inputTokens: 800, outputTokens: 80, cacheReadTokens: 8 });
    await bed.publishMessage(taskId, 3, { type: 'usage', provider: 'anthropic', model: 'opus', inputTokens: 300, outputTokens: 30 });
    await bed.publishMessage(taskId, 4, { type: 'usage', model: 'local-model', inputTokens: 4, outputTokens: 0 });
    await bed.publishMessage(taskId, 9, { type: 'usage', provider: 'anthropic', model: 'opus', inputTokens: 5, outputTokens: 5 }, { attempt: 2 });
    await bed.caughtUp(projector);
    const usage = await bed.query('select * from task_usage where task_id = $1 order by attempt, provider, model', [taskId]);
    expect(usage).toEqual([
      { task_id: taskId, attempt: 1, provider: '', model: 'local-model', input_tokens: '4', output_tokens: '0', cache_read_tokens: '0', cache_write_tokens: '0', reported_seq: 4 },
      { task_id: taskId, attempt: 1, provider: 'anthropic', model: 'opus', input_tokens: '800', output_tokens: '80', cache_read_tokens: '8', cache_write_tokens: '0', reported_seq: 8 },
      { task_id: taskId, attempt: 2, provider: 'anthropic', model: 'opus', input_tokens: '5', output_tokens: '5', cache_read_tokens: '0', cache_write_tokens: '0', reported_seq: 9 },
    ]);
    expect(await bed.rows(taskId)).toEqual([]);
  });

  it('dead-letters malformed events with the reason and keeps projecting the stream', async () => {
    const taskId = uniqueNamespace('task');
    // Given garbage, an envelope with an invalid payload and a non-timeline event on the timeline subject
    await bed.publishRaw(taskId, new TextEncoder().encode('{ not json'), `${taskId}:garbage`);
    const invalid = { ...(createEvent({ type: 'task.message', payload: { taskId, seq: 0, attempt: 1, message: { type: 'text', text: 'x' } } }) as object), payload: { taskId, seq: -1 } };
    await bed.publishRaw(taskId, new TextEncoder().encode(JSON.stringify(invalid)), `${taskId}:invalid`);
    const heartbeat = createEvent({ type: 'task.heartbeat', payload: { taskId, attempt: 1, daemonId: 'daemon-1', leaseExpiresAt: new Date().toISOString() } });
    await bed.publishRaw(taskId, new TextEncoder().encode(JSON.stringify(heartbeat)), `${taskId}:wrong-type`);
    // And a good event after them
    await bed.publishMessage(taskId, 0, { type: 'text', text: 'still here' });
    await bed.caughtUp(projector);
    // Then the good one is a row and the three bad ones are in the dead-letter stream with a reason
    expect((await bed.rows(taskId)).map((row) => row['content'])).toEqual(['still here']);
    const deadLetters = (await readStream(bed.connection, STREAM_CATALOG.DEAD_LETTERS.name)).filter((entry) => entry.headers[HEADERS.deadLetterSubject]?.includes(`.${taskId}.`));
    expect(deadLetters.map((entry) => entry.headers[HEADERS.deadLetterReason]?.split(':')[0])).toEqual(['decode_failed', 'permanent_error', 'permanent_error']);
    expect(deadLetters[0]!.subject).toBe(`dlq.${STREAM_CATALOG.TASK_EVENTS.name}.transcript-timeline`);
    // And, terminated, they are never delivered again
    expect(projector.stats.totals().deadLettered).toBe(3);
  });

  it('dead-letters a message Postgres refuses and still stores the rest of its batch', async () => {
    const taskId = uniqueNamespace('task');
    const before = projector.stats.totals().deadLettered;
    // Given a valid event whose seq does not fit the table's integer column, between two good ones
    await bed.publishMessage(taskId, 0, { type: 'text', text: 'before' });
    await bed.publishMessage(taskId, 3_000_000_000, { type: 'text', text: 'seq out of range' });
    await bed.publishMessage(taskId, 1, { type: 'text', text: 'after' });
    await bed.caughtUp(projector);
    // Then the good ones are rows and the refused one is a dead letter with the database's reason
    expect((await bed.rows(taskId)).map((row) => row['content'])).toEqual(['before', 'after']);
    expect(projector.stats.totals().deadLettered - before).toBe(1);
    const deadLetters = (await readStream(bed.connection, STREAM_CATALOG.DEAD_LETTERS.name)).filter((entry) => entry.headers[HEADERS.deadLetterSubject]?.includes(`.${taskId}.`));
    expect(deadLetters.map((entry) => entry.headers[HEADERS.deadLetterReason])).toEqual([expect.stringMatching(/^permanent_error: .*out of range/)]);
  });

  it('stores a message only from the daemon holding its attempt: a forgery is dead-lettered and does not take the holder’s seq', async () => {
    const taskId = uniqueNamespace('task');
    const before = projector.stats.totals().deadLettered;
    // Given the test daemon holding attempt 1, and its first message stored
    await bed.publishMessage(taskId, 0, { type: 'text', text: 'holder 0' });
    await bed.caughtUp(projector);
    // When another enrolled daemon publishes, as itself, the seq the holder uses next, ahead of it
    await bed.publishMessage(taskId, 1, { type: 'text', text: 'forged' }, { publisher: 'daemon-forger' });
    await bed.publishMessage(taskId, 1, { type: 'text', text: 'holder 1' });
    await bed.publishMessage(taskId, 2, { type: 'text', text: 'holder 2' });
    await bed.caughtUp(projector);
    // Then the holder's messages are the timeline, its seq 1 included
    expect((await bed.rows(taskId)).map((row) => [row['seq'], row['content']])).toEqual([
      [0, 'holder 0'],
      [1, 'holder 1'],
      [2, 'holder 2'],
    ]);
    // And the forgery is a dead letter whose reason names the publisher and the holder
    const deadLetters = (await readStream(bed.connection, STREAM_CATALOG.DEAD_LETTERS.name)).filter((entry) => entry.headers[HEADERS.deadLetterSubject]?.includes(`.${taskId}.`));
    expect(deadLetters.map((entry) => [entry.headers[HEADERS.deadLetterSubject], entry.headers[HEADERS.deadLetterReason]])).toEqual([
      [`task.message.${taskId}.daemon-forger`, `permanent_error: Error: published by daemon-forger, but attempt 1 of task ${taskId} is held by ${TIMELINE_TEST_DAEMON_ID}`],
    ]);
    expect(projector.stats.totals().deadLettered - before).toBe(1);
  });

  it('checks an earlier attempt against its claim, and the current one against the queue row', async () => {
    const taskId = uniqueNamespace('task');
    // Given attempt 1 claimed by the test daemon, attempt 2 (the current one) by another daemon
    await bed.holdAttempt(taskId, 1);
    await bed.holdAttempt(taskId, 2, 'daemon-second');
    // When each publishes for its own attempt, and each for the other's
    await bed.publishMessage(taskId, 0, { type: 'text', text: 'first attempt' }, { attempt: 1 });
    await bed.publishMessage(taskId, 1, { type: 'text', text: 'forged into attempt 1' }, { attempt: 1, publisher: 'daemon-second' });
    await bed.publishMessage(taskId, 2, { type: 'text', text: 'forged into attempt 2' }, { attempt: 2 });
    await bed.publishMessage(taskId, 3, { type: 'text', text: 'second attempt' }, { attempt: 2, publisher: 'daemon-second' });
    await bed.caughtUp(projector);
    // Then only the holders' messages are stored
    expect((await bed.rows(taskId)).map((row) => [row['seq'], row['attempt'], row['content']])).toEqual([
      [0, 1, 'first attempt'],
      [3, 2, 'second attempt'],
    ]);
  });

  it('retries a message whose attempt has no holder yet, stores it once the claim is there, and dead-letters one that never gets a holder', async () => {
    const claimedLate = uniqueNamespace('task');
    const neverClaimed = uniqueNamespace('task');
    const before = projector.stats.totals().deadLettered;
    // Given messages of attempts nobody holds yet
    await bed.publishMessage(claimedLate, 0, { type: 'text', text: 'before the claim' }, { publisher: 'daemon-late' });
    await bed.publishMessage(neverClaimed, 0, { type: 'text', text: 'never claimed' }, { publisher: 'daemon-late' });
    await waitFor(async () => (await consumerState(bed.connection, { stream: STREAM_CATALOG.TASK_EVENTS.name, name: TIMELINE_CONSUMER_NAME })).redelivered > 0, { description: 'a retry' });
    // When one attempt's claim commits
    await bed.holdAttempt(claimedLate, 1, 'daemon-late');
    await bed.caughtUp(projector);
    // Then its message is stored, and the other is dead-lettered after the consumer's last delivery
    expect((await bed.rows(claimedLate)).map((row) => row['content'])).toEqual(['before the claim']);
    expect(await bed.rows(neverClaimed)).toEqual([]);
    const deadLetters = (await readStream(bed.connection, STREAM_CATALOG.DEAD_LETTERS.name)).filter((entry) => entry.headers[HEADERS.deadLetterSubject]?.includes(`.${neverClaimed}.`));
    expect(deadLetters.map((entry) => [entry.headers[HEADERS.deadLetterReason], entry.headers[HEADERS.deadLetterDeliveries]])).toEqual([
      [`max_deliver_exceeded: Error: attempt 1 of task ${neverClaimed} has no holder yet; published by daemon-late`, String(TEST_PROJECTOR_TUNING.consumer.maxDeliver)],
    ]);
    expect(projector.stats.totals().deadLettered - before).toBe(1);
  });

  it('never lets a secret, a NUL byte or invalid UTF-8 reach the table', async () => {
    const taskId = uniqueNamespace('task');
    // Given every sample secret in every kind of timeline message
    let seq = 0;
    for (const sample of SECRET_SAMPLES) {
      await bed.publishMessage(taskId, seq++, { type: 'text', text: `Found this: ${sample.text}` });
      await bed.publishMessage(taskId, seq++, { type: 'thinking', text: sample.text });
      await bed.publishMessage(taskId, seq++, { type: 'tool-use', tool: 'Bash', callId: `c${seq}`, input: { command: sample.text, env: { SERVICE_TOKEN: sample.secret }, argv: [sample.text] } });
      await bed.publishMessage(taskId, seq++, { type: 'tool-result', callId: `c${seq - 1}`, output: `$ run\n${sample.text}\nexit 0\u0000`, status: 'ok' });
      await bed.publishMessage(taskId, seq++, { type: 'error', code: 'failed', message: `request failed: ${sample.text}` });
      await bed.publishMessage(taskId, seq++, { type: 'notice', code: 'repository_work', text: `pushed: ${sample.text}` });
    }
    // And an event whose JSON holds invalid UTF-8 bytes
    const withBadBytes = createEvent({ type: 'task.message', payload: { taskId, seq: seq++, attempt: 1, message: { type: 'text', text: 'bad @@ bytes' } } });
    const encoded = Buffer.from(JSON.stringify(withBadBytes));
    const marker = encoded.indexOf('@@');
    encoded[marker] = 0xc3;
    encoded[marker + 1] = 0x28;
    await bed.publishRaw(taskId, encoded, `${taskId}:bad-bytes`);
    await bed.caughtUp(projector);
    // Then no column of any row holds any secret (nor any line of a private key)
    const rows = await bed.rows(taskId);
    expect(rows).toHaveLength(SECRET_SAMPLES.length * 6 + 1);
    const stored = rows.flatMap(stringsOf);
    for (const sample of SECRET_SAMPLES) {
      const needles = [sample.secret, ...sample.secret.split('\n').filter((line) => line.length >= 16 && !line.startsWith('-----'))];
      for (const needle of needles) expect(stored.filter((value) => value.includes(needle))).toEqual([]);
    }
    expect(stored.filter((value) => value.includes('\u0000'))).toEqual([]);
    expect(rows[rows.length - 1]!['content']).toBe('bad \uFFFD( bytes');
  });

  itOnPostgresServer('loses and duplicates nothing when a projector dies after its commit but before its acks', async () => {
    const taskId = uniqueNamespace('task');
    await bed.stopProjector(projector);
    // Given a projector whose checkpoint write is blocked, so its batch is in flight
    const doomed = await bed.startProjector();
    await bed.publishMessage(taskId, 0, { type: 'text', text: 'warm-up' });
    await bed.caughtUp(doomed.projector);
    const session = await bed.session();
    try {
      await session.query('begin');
      await session.query('select * from consumer_checkpoint where consumer_name = $1 for update', [doomed.projector.checkpointName]);
      for (let seq = 1; seq <= 30; seq += 1) await bed.publishMessage(taskId, seq, { type: 'text', text: `in flight ${seq}` });
      await waitFor(async () => (await session.query('select 1 from pg_locks where not granted')).rowCount! > 0, { description: 'the projector to block' });
      // When it loses NATS (it can never ack) and then its transaction commits
      await closeConnectionAbruptly(doomed.connection);
      await session.query('commit');
      await waitFor(async () => (await bed.rows(taskId)).length > 1, { description: 'the dead projector’s commit' });
    } finally {
      await session.end();
    }
    await bed.stopProjector(doomed.projector);
    // And a new projector takes over while more messages arrive
    ({ projector } = await bed.startProjector());
    for (let seq = 31; seq <= 40; seq += 1) await bed.publishMessage(taskId, seq, { type: 'text', text: `after ${seq}` });
    await bed.caughtUp(projector);
    // Then every seq is there exactly once
    expect((await bed.rows(taskId)).map((row) => row['seq'])).toEqual(Array.from({ length: 41 }, (_, seq) => seq));
    // And the new projector did see the dead one's committed messages again, and absorbed them
    const totals = projector.stats.totals();
    expect(totals.rows - totals.insertedRows).toBeGreaterThan(0);
  });

  itOnPostgresServer('refuses to rebuild while a projector runs', async () => {
    await expect(rebuildTimeline({ connection: bed.connection, dataSource: bed.dataSource, logger: bed.logger, ...TEST_PROJECTOR_TUNING })).rejects.toBeInstanceOf(RebuildRefusedError);
  });

  it('rebuilds exactly the same rows from the stream', async () => {
    // Given the view built live by every test above (duplicates, out-of-order, dead letters, secrets)
    const snapshot = async () => ({
      messages: await bed.query('select * from task_message order by task_id, seq'),
      usage: await bed.query('select * from task_usage order by task_id, attempt, provider, model'),
    });
    const before = await snapshot();
    expect(before.messages.length).toBeGreaterThan(200);
    await bed.stopProjector(projector);
    // When it is dropped and replayed from the stream
    const connection: MessagingConnection = await bed.newConnection('timeline-rebuild');
    const result = await rebuildTimeline({ connection, dataSource: bed.dataSource, logger: bed.logger, ...TEST_PROJECTOR_TUNING, pollMs: 100 });
    // Then every row and every usage total is identical
    expect(result.rowsInserted).toBe(before.messages.length);
    expect(await snapshot()).toEqual(before);
    // And the service carries on from there
    ({ projector } = await bed.startProjector());
    const taskId = uniqueNamespace('task');
    await bed.publishMessage(taskId, 0, { type: 'text', text: 'after the rebuild' });
    await bed.caughtUp(projector);
    expect(await bed.rows(taskId)).toHaveLength(1);
  });
});
