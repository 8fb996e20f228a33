import { createEvent, timelineEntryOf, type AgentMessage, type SwitchyardEvent, type TaskMessageEvent, type TimelineEntry } from '@switchyard/contracts';
import type { ServerFrame } from './live.frames';
import { TaskFeedSequencer } from './task-feed.sequencer';
import { expectedKeysOf, frameKeyOf, messageEvent, messageSeqsOf, randomInt, scriptedTaskRun, seededRandom } from './task-run.spec-helper';

const TASK = 'task-1';
const message = (seq: number, body: AgentMessage): TaskMessageEvent => messageEvent({ taskId: TASK, seq, attempt: 1, message: body });
const text = (seq: number): TaskMessageEvent => message(seq, { type: 'text', text: `line ${seq}` });
const usage = (seq: number): TaskMessageEvent => message(seq, { type: 'usage', model: 'm', inputTokens: seq, outputTokens: 0 });
const row = (event: TaskMessageEvent): TimelineEntry => timelineEntryOf(event)!;
const started = (): SwitchyardEvent =>
  createEvent({ type: 'task.started', payload: { taskId: TASK, attempt: 1, daemonId: 'd', runtimeId: 'r', workDir: '/w', resumedSessionId: null, leaseExpiresAt: '2030-01-01T00:00:00.000Z' } });
const completed = (): SwitchyardEvent => createEvent({ type: 'task.completed', payload: { taskId: TASK, attempt: 1, sessionId: null, output: null, durationMs: 1, usage: [], repositories: [] } });
const keys = (frames: readonly ServerFrame[]): Array<string | undefined> => frames.map(frameKeyOf);
const identity = (body: AgentMessage): AgentMessage => body;

/** A sequencer for a client after `afterSeq`, the stream holding the task from `firstStreamedSeq`, handed over to the stream. */
function streaming(afterSeq: number, firstStreamedSeq: number | undefined = 0, sanitize = identity): TaskFeedSequencer {
  const sequencer = new TaskFeedSequencer({ taskId: TASK, afterSeq, firstStreamedSeq, sanitize });
  sequencer.handOver();
  return sequencer;
}

describe('task feed sequencer', () => {
  describe('when the stream holds the whole task', () => {
    it('given a fresh client, then reads no view and sends lifecycle, activity and rows in stream order', () => {
      const events = [started(), message(0, { type: 'status', state: 'started', sessionId: 's-1' }), message(1, { type: 'log', level: 'warn', text: 'w' }), text(2), usage(3), completed()];
      const sequencer = new TaskFeedSequencer({ taskId: TASK, afterSeq: -1, firstStreamedSeq: 0, sanitize: identity });

      expect(sequencer.viewRange).toBeUndefined();
      sequencer.handOver();
      const frames = events.flatMap((event) => sequencer.streamed(event));

      expect(keys(frames)).toEqual(['task task.started attempt 1', '0 activity:status', '1 activity:log', '2 timeline:text', '3 activity:usage', 'task task.completed attempt 1']);
    });

    it('given a client that dropped at seq 46 while the view has every row, then sends the activity after 46 as well as the rows', () => {
      const events = Array.from({ length: 60 }, (_, seq) => (seq % 3 === 0 ? usage(seq) : text(seq)));
      const sequencer = new TaskFeedSequencer({ taskId: TASK, afterSeq: 46, firstStreamedSeq: 0, sanitize: identity });

      // The stream has it all: the view, which holds rows only, is not read.
      expect(sequencer.viewRange).toBeUndefined();
      sequencer.handOver();
      const frames = events.flatMap((event) => sequencer.streamed(event));

      expect(keys(frames)).toEqual(expectedKeysOf(events.slice(47)));
      expect(frames.filter((frame) => frame.type === 'activity')).toHaveLength(4);
    });

    it('given a client that holds seq 5, then sends nothing at or below it and no status change from before it', () => {
      const sequencer = streaming(5);
      const frames = [started(), text(3), text(4), text(5), text(6), completed()].flatMap((event) => sequencer.streamed(event));

      expect(keys(frames)).toEqual(['6 timeline:text', 'task task.completed attempt 1']);
      expect(sequencer.lastSentSeq).toBe(6);
    });

    it('given a status change right after the client\'s last seq, then sends it again (the client cannot say it saw it)', () => {
      const sequencer = streaming(1);
      const frames = [text(0), text(1), completed()].flatMap((event) => sequencer.streamed(event));
      expect(keys(frames)).toEqual(['task task.completed attempt 1']);
    });
  });

  describe('when retention dropped the start of the task from the stream', () => {
    it('given the stream starts at seq 3, then rows below 3 come from the view, and the lifecycle events the stream kept follow them', () => {
      // Seq 1 was a usage message: not a row, gone with the stream's retention.
      const old = [text(0), text(2)];
      const sequencer = new TaskFeedSequencer({ taskId: TASK, afterSeq: -1, firstStreamedSeq: 3, sanitize: identity });

      expect(sequencer.viewRange).toEqual({ afterSeq: -1, beforeSeq: 3 });
      const replayed = sequencer.replayed([...old.map(row), row(text(3))]);
      sequencer.handOver();
      const streamed = [started(), text(3), usage(4), completed()].flatMap((event) => sequencer.streamed(event));

      expect(keys(replayed)).toEqual(['0 timeline:text', '2 timeline:text']);
      // Seq 3 is not held waiting for seq 1, which nobody has.
      expect(keys(streamed)).toEqual(['task task.started attempt 1', '3 timeline:text', '4 activity:usage', 'task task.completed attempt 1']);
      expect(sequencer.holding).toBe(false);
    });

    it('given the stream holds no message of the task, then every row after the client\'s seq comes from the view, then the lifecycle events', () => {
      const sequencer = new TaskFeedSequencer({ taskId: TASK, afterSeq: 0, firstStreamedSeq: undefined, sanitize: identity });

      expect(sequencer.viewRange).toEqual({ afterSeq: 0, beforeSeq: undefined });
      const replayed = sequencer.replayed([0, 1, 2].map((seq) => row(text(seq))));
      sequencer.handOver();

      expect(keys(replayed)).toEqual(['1 timeline:text', '2 timeline:text']);
      expect(keys(sequencer.streamed(completed()))).toEqual(['task task.completed attempt 1']);
    });
  });

  describe('when a message overtakes a missing one', () => {
    it('then holds it, and the status change after it, until the gap fills; then sends all in order', () => {
      const sequencer = streaming(-1);

      expect(keys(sequencer.streamed(text(0)))).toEqual(['0 timeline:text']);
      expect(sequencer.streamed(text(2))).toEqual([]);
      expect(sequencer.streamed(completed())).toEqual([]);
      expect(sequencer.holding).toBe(true);
      expect(keys(sequencer.streamed(text(1)))).toEqual(['1 timeline:text', '2 timeline:text', 'task task.completed attempt 1']);
      expect(sequencer.holding).toBe(false);
    });

    it('then, given the view holds rows of the gap, sends them with the held ones, and gives up on the rest only when told', () => {
      const sequencer = streaming(0);
      sequencer.streamed(usage(4));
      sequencer.streamed(completed());

      expect(sequencer.gap).toEqual({ afterSeq: 0, beforeSeq: 4 });
      // Seq 1 and 3 are nowhere: 1 is given up (a row after it came), 3 waits for `releaseHeld`.
      expect(keys(sequencer.gapFilled([row(text(2)), row(text(9))]))).toEqual(['2 timeline:text']);
      expect(keys(sequencer.releaseHeld())).toEqual(['4 activity:usage', 'task task.completed attempt 1']);
      expect(keys(sequencer.streamed(text(5)))).toEqual(['5 timeline:text']);
    });

    it('then gives up only on the gap it was told about', () => {
      const sequencer = streaming(0);
      sequencer.streamed(text(3));
      const waited = sequencer.gap!;
      sequencer.streamed(text(6));

      expect(keys(sequencer.releaseHeld(waited.beforeSeq))).toEqual(['3 timeline:text']);
      expect(sequencer.gap).toEqual({ afterSeq: 3, beforeSeq: 6 });
    });
  });

  describe('given a run with every frame kind and a client that drops at random seqs', () => {
    it.each([1, 7, 42, 2024])('then (seed %i) the union of what it received is one uninterrupted feed: every seq once, in order, status changes in place', (seed) => {
      const random = seededRandom(seed);
      const run = scriptedTaskRun({ taskId: TASK, messageCount: 120, random });
      const seqs = messageSeqsOf(run);
      const drops = [...new Set([1, ...Array.from({ length: 6 }, () => randomInt(random, 0, seqs.length - 2))])].sort((left, right) => left - right);

      const received: Array<string | undefined> = [];
      let afterSeq = -1;
      for (const drop of [...drops, undefined]) {
        // The stream holds the run so far: a little past the drop point.
        const published = drop === undefined ? run.length : run.findIndex((event) => event.type === 'task.message' && event.payload.seq === drop) + 1 + randomInt(random, 0, 8);
        const sequencer = streaming(afterSeq);
        const frames = keys(run.slice(0, published).flatMap((event) => sequencer.streamed(event)));
        // The socket dies right after the frame of `drop`.
        received.push(...(drop === undefined ? frames : frames.slice(0, frames.findIndex((key) => key?.startsWith(`${drop} `)) + 1)));
        if (drop !== undefined) afterSeq = drop;
      }

      expect(received).toEqual(expectedKeysOf(run));
    });
  });

  it('names the tool of a result that lacks it, from the call it answers (replayed or streamed)', () => {
    const sequencer = new TaskFeedSequencer({ taskId: TASK, afterSeq: -1, firstStreamedSeq: 1, sanitize: identity });
    sequencer.replayed([row(message(0, { type: 'tool-use', tool: 'Bash', callId: 'c1', input: {} }))]);
    sequencer.handOver();

    const [frame] = sequencer.streamed(message(1, { type: 'tool-result', callId: 'c1', output: 'ok', status: 'ok' }));

    expect(frame).toMatchObject({ type: 'timeline', entry: { type: 'tool_result', tool: 'Bash', callId: 'c1' } });
  });

  it('cleans every streamed message before it is sent, activity included', () => {
    const sequencer = streaming(-1, 0, (body) => (body.type === 'text' || body.type === 'log' ? { ...body, text: body.text.replace('sk-secret', '[REDACTED]') } : body));
    const frames = [message(0, { type: 'text', text: 'key sk-secret' }), message(1, { type: 'log', level: 'info', text: 'key sk-secret' })].flatMap((event) => sequencer.streamed(event));
    expect(frames).toMatchObject([{ entry: { content: 'key [REDACTED]' } }, { message: { text: 'key [REDACTED]' } }]);
  });

  it('turns lifecycle events into status changes without their payload, and ignores heartbeats', () => {
    const sequencer = streaming(-1);
    const failed = createEvent({
      type: 'task.failed',
      payload: { taskId: TASK, attempt: 1, reason: 'agent_error', message: 'it broke', sessionId: null, detail: 'stderr tail', repositories: [] },
    }) as SwitchyardEvent;
    const heartbeat = createEvent({ type: 'task.heartbeat', payload: { taskId: TASK, attempt: 1, daemonId: 'd', leaseExpiresAt: '2030-01-01T00:00:00.000Z' } });

    expect(sequencer.streamed(heartbeat)).toEqual([]);
    expect(sequencer.streamed(failed)).toEqual([
      { type: 'task', taskId: TASK, event: 'task.failed', status: 'failed', attempt: 1, reason: 'agent_error', occurredAt: failed.occurredAt },
    ]);
  });
});
