import { createEvent, timelineEntryOf, type AgentMessage, type SwitchyardEvent, type TaskMessageEvent, type TimelineEntry } from '@switchyard/contracts';
import { TaskFeedSequencer } from './task-feed.sequencer';

const TASK = 'task-1';
const messageEvent = (seq: number, message: AgentMessage): TaskMessageEvent => createEvent({ type: 'task.message', payload: { taskId: TASK, seq, attempt: 1, message } });
const text = (seq: number): TaskMessageEvent => messageEvent(seq, { type: 'text', text: `line ${seq}` });
const row = (event: TaskMessageEvent): TimelineEntry => timelineEntryOf(event)!;
const seqsOf = (frames: ReturnType<TaskFeedSequencer['streamed']>): number[] =>
  frames.map((frame) => (frame.type === 'timeline' ? frame.entry.seq : frame.type === 'activity' ? frame.seq : -99));
const identity = (message: AgentMessage): AgentMessage => message;

describe('task feed sequencer', () => {
  it('given rows replayed up to seq 2, when the stream delivers 0..4, then sends 3 and 4 only', () => {
    const sequencer = new TaskFeedSequencer(TASK, -1, identity);
    const events = [0, 1, 2, 3, 4].map(text);

    const replayed = sequencer.replayed(events.slice(0, 3).map(row));
    const streamed = events.flatMap((event) => sequencer.streamed(event));

    expect(seqsOf(replayed)).toEqual([0, 1, 2]);
    expect(seqsOf(streamed)).toEqual([3, 4]);
  });

  it('given a client that holds seq 5, sends nothing at or below it from either source', () => {
    const sequencer = new TaskFeedSequencer(TASK, 5, identity);
    const events = [3, 4, 5, 6, 7].map(text);

    expect(seqsOf(sequencer.replayed(events.slice(0, 4).map(row)))).toEqual([6]);
    expect(seqsOf(events.flatMap((event) => sequencer.streamed(event)))).toEqual([7]);
    expect(sequencer.lastSentSeq).toBe(7);
  });

  it('sends status, log and usage messages as activity, not as timeline rows', () => {
    const sequencer = new TaskFeedSequencer(TASK, -1, identity);
    const frames = sequencer.streamed(messageEvent(0, { type: 'status', state: 'started', sessionId: 's-1' }));
    expect(frames).toEqual([{ type: 'activity', taskId: TASK, seq: 0, message: { type: 'status', state: 'started', sessionId: 's-1' } }]);
  });

  it('names the tool of a result that lacks it, from the call it answers (replayed or streamed)', () => {
    const sequencer = new TaskFeedSequencer(TASK, -1, identity);
    sequencer.replayed([row(messageEvent(0, { type: 'tool-use', tool: 'Bash', callId: 'c1', input: {} }))]);

    const [frame] = sequencer.streamed(messageEvent(1, { type: 'tool-result', callId: 'c1', output: 'ok', status: 'ok' }));

    expect(frame).toMatchObject({ type: 'timeline', entry: { type: 'tool_result', tool: 'Bash', callId: 'c1' } });
  });

  it('cleans every streamed message before it is sent', () => {
    const sequencer = new TaskFeedSequencer(TASK, -1, (message) => (message.type === 'text' ? { ...message, text: message.text.replace('sk-secret', '[REDACTED]') } : message));
    const [frame] = sequencer.streamed(messageEvent(0, { type: 'text', text: 'key sk-secret' }));
    expect(frame).toMatchObject({ entry: { content: 'key [REDACTED]' } });
  });

  it('turns lifecycle events into status changes without their payload', () => {
    const sequencer = new TaskFeedSequencer(TASK, -1, identity);
    const failed = createEvent({
      type: 'task.failed',
      payload: { taskId: TASK, attempt: 1, reason: 'agent_error', message: 'it broke', sessionId: null, detail: 'stderr tail' },
    }) as SwitchyardEvent;

    expect(sequencer.streamed(failed)).toEqual([
      { type: 'task', taskId: TASK, event: 'task.failed', status: 'failed', attempt: 1, reason: 'agent_error', occurredAt: failed.occurredAt },
    ]);
  });

  it('holds a message that overtook a missing one until the gap fills, then sends both in order', () => {
    const sequencer = new TaskFeedSequencer(TASK, -1, identity);
    const events = [0, 1, 2, 3].map(text);

    expect(seqsOf(sequencer.streamed(events[0]!))).toEqual([0]);
    expect(seqsOf(sequencer.streamed(events[2]!))).toEqual([]);
    expect(seqsOf(sequencer.streamed(events[3]!))).toEqual([]);
    expect(sequencer.holding).toBe(true);
    expect(seqsOf(sequencer.streamed(events[1]!))).toEqual([1, 2, 3]);
    expect(sequencer.holding).toBe(false);
  });

  it('gives up on a seq that never comes when asked, sending the held ones in order', () => {
    const sequencer = new TaskFeedSequencer(TASK, 0, identity);
    sequencer.streamed(text(4));
    sequencer.streamed(text(3));

    expect(seqsOf(sequencer.releaseHeld())).toEqual([3, 4]);
    expect(sequencer.lastSentSeq).toBe(4);
    expect(seqsOf(sequencer.streamed(text(5)))).toEqual([5]);
  });
});
