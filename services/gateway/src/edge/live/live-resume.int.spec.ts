import { SERVICE_PUBLISHERS, messageIds, subjects, timelineEntryOf, type SwitchyardEvent } from '@switchyard/contracts';
import { publish } from '@switchyard/messaging';
import { useLiveGateway } from './live-gateway.spec-helper';
import { seqsReceived, type LiveTestClient } from './live-client.spec-helper';
import type { ServerFrame } from './live.frames';
import { expectedKeysOf, frameKeyOf, framesThroughSeq, messageSeqsOf, randomInt, scriptedTaskRun, seededRandom } from './task-run.spec-helper';

const TOKEN = 'sy_live-resume-token-live-resume-token-01';
const SEED = 20_260_114;

describe('gateway live WebSocket: resume with every frame kind (real NATS + Postgres)', () => {
  const bed = useLiveGateway({ token: TOKEN, taskPrefix: 'task-resume', daemonId: 'daemon-live-resume' });
  /** A task whose two attempts (the scripted run loses a lease half way) the publishing daemon holds. */
  const newTask = async (): Promise<string> => {
    const taskId = await bed.newTask();
    await bed.holdAttempt({ taskId, attempt: 2 });
    return taskId;
  };

  /** What the projector writes for a message that is a timeline row; nothing for the others. */
  async function projectIntoView(event: SwitchyardEvent): Promise<void> {
    if (event.type !== 'task.message') return;
    const entry = timelineEntryOf(event);
    if (!entry) return;
    await bed.database.query(
      `insert into task_message (id, task_id, seq, attempt, type, tool, call_id, content, input, output, output_truncated, tool_status, error_code, notice_code, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      [
        entry.id,
        entry.taskId,
        entry.seq,
        entry.attempt,
        entry.type,
        entry.tool,
        entry.callId,
        entry.content,
        entry.input === null ? null : JSON.stringify(entry.input),
        entry.output,
        entry.outputTruncated,
        entry.toolStatus,
        entry.errorCode,
        entry.noticeCode,
        entry.createdAt,
      ],
    );
  }

  /** Publishes on the stream, and writes its row at once: a projector that keeps up, the case that hid activity frames. */
  async function publishAndProject(event: SwitchyardEvent): Promise<void> {
    // The daemon publishes the timeline, the queue's relay the rest.
    const publisher = event.type === 'task.message' ? 'daemon-live-resume' : SERVICE_PUBLISHERS.queue;
    await publish(bed.bus, { subject: subjects.forEvent(event, publisher), data: event, messageId: messageIds.forEvent(event, publisher) });
    await projectIntoView(event);
  }

  async function subscribed(taskId: string, afterSeq: number): Promise<LiveTestClient> {
    const viewer = await bed.connect(TOKEN);
    viewer.send({ type: 'subscribe', taskId, afterSeq });
    await viewer.waitFor((frames) => frames.some((frame) => frame.type === 'subscribed'));
    return viewer;
  }

  const isCompleted = (frames: readonly ServerFrame[]): boolean => frames.some((frame) => frame.type === 'task' && frame.status === 'completed');
  const kindsOf = (frames: readonly ServerFrame[]): Set<string> =>
    new Set(frames.flatMap((frame) => (frame.type === 'timeline' ? [frame.entry.type] : frame.type === 'activity' ? [frame.message.type] : frame.type === 'task' ? [frame.event] : [])));

  it(`a client dropped at random seqs (seed ${SEED}) while the task runs ends with every frame once, in order, activity and status changes included`, async () => {
    const taskId = await newTask();
    const random = seededRandom(SEED);
    const run = scriptedTaskRun({ taskId, messageCount: 160, random });
    const seqs = messageSeqsOf(run);
    // Seq 1 and 46 are the drops measured in issue 14; the others are random.
    const drops = [...new Set([1, 46, ...Array.from({ length: 6 }, () => randomInt(random, 0, seqs.length - 2))])].sort((left, right) => left - right);
    let published = 0;
    const publishThrough = async (index: number): Promise<void> => {
      for (; published < Math.min(index, run.length); published += 1) await publishAndProject(run[published]!);
    };
    const indexAfterSeq = (seq: number): number => run.findIndex((event) => event.type === 'task.message' && event.payload.seq === seq) + 1;

    const received: ServerFrame[] = [];
    let afterSeq = -1;
    for (const drop of drops) {
      const viewer = await subscribed(taskId, afterSeq);
      // Events flow while it watches, a little past the seq it will drop at.
      await publishThrough(Math.max(published, indexAfterSeq(drop) + randomInt(random, 0, 8)));
      await viewer.waitFor((frames) => seqsReceived(frames, taskId).includes(drop));
      // The socket dies right after the frame of `drop`: the client holds what came up to it.
      received.push(...framesThroughSeq(viewer.frames, taskId, drop));
      await viewer.close();
      // More while it is away.
      await publishThrough(published + randomInt(random, 0, 15));
      afterSeq = drop;
    }
    const last = await subscribed(taskId, afterSeq);
    await publishThrough(run.length);
    await last.waitFor(isCompleted);
    received.push(...last.frames.filter((frame) => frameKeyOf(frame) !== undefined));

    expect(drops.length).toBeGreaterThanOrEqual(5);
    expect(received.map(frameKeyOf)).toEqual(expectedKeysOf(run));
    expect(kindsOf(received)).toEqual(
      new Set(['text', 'thinking', 'tool_use', 'tool_result', 'error', 'notice', 'status', 'log', 'usage', 'task.enqueued', 'task.claimed', 'task.started', 'task.requeued', 'task.completed']),
    );
  }, 90_000);

  it('a fresh subscribe to a finished task gets everything: lifecycle first, early status, warning and usage frames, completed last', async () => {
    const taskId = await newTask();
    const run = scriptedTaskRun({ taskId, messageCount: 40, random: seededRandom(SEED + 1) });
    for (const event of run) await publishAndProject(event);

    const viewer = await subscribed(taskId, -1);
    await viewer.waitFor(isCompleted);
    const frames = viewer.frames.filter((frame) => frameKeyOf(frame) !== undefined);

    expect(frames.map(frameKeyOf)).toEqual(expectedKeysOf(run));
    expect(frames.slice(0, 6).map(frameKeyOf)).toEqual([
      'task task.enqueued attempt -',
      'task task.claimed attempt 1',
      'task task.started attempt 1',
      '0 activity:status',
      '1 activity:log',
      '2 activity:usage',
    ]);
    expect(frames[0]).toMatchObject({ type: 'task', status: 'queued' });
    expect(frames[frames.length - 1]).toMatchObject({ type: 'task', status: 'completed' });
  });

  it('takes the rows the stream no longer holds from the view, then the lifecycle events and messages the stream kept, in order', async () => {
    const taskId = await newTask();
    const run = scriptedTaskRun({ taskId, messageCount: 10, random: seededRandom(SEED + 2) });
    // Retention dropped the stream's oldest events, up to the lost lease before seq 5: only the
    // view has what they held, and only the rows (seqs 0-2 are status, log and usage).
    const cut = run.findIndex((event) => event.type === 'task.requeued');
    const aged = run.slice(0, cut);
    const kept = run.slice(cut);
    for (const event of aged) await projectIntoView(event);
    for (const event of kept) await publishAndProject(event);

    const viewer = await subscribed(taskId, -1);
    await viewer.waitFor(isCompleted);
    const frames = viewer.frames.filter((frame) => frameKeyOf(frame) !== undefined);

    const agedRows = aged.filter((event) => event.type === 'task.message' && timelineEntryOf(event) !== undefined);
    expect(agedRows.map((event) => (event.type === 'task.message' ? event.payload.seq : -1))).toEqual([3, 4]);
    expect(frames.map(frameKeyOf)).toEqual([...expectedKeysOf(agedRows), ...expectedKeysOf(kept)]);
    expect(frames[2]).toMatchObject({ type: 'task', event: 'task.requeued' });
  });
});
