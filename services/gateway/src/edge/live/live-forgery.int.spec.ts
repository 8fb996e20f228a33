import { createEvent, messageIds, subjects, type AgentMessage, type EventOf } from '@switchyard/contracts';
import { publish } from '@switchyard/messaging';
import { useLiveGateway } from './live-gateway.spec-helper';
import { seqsReceived } from './live-client.spec-helper';
import type { ServerFrame } from './live.frames';
import { firstStreamedMessageSeq } from './task-stream.reader';

const TOKEN = 'sy_live-forgery-token-live-forgery-tok-01';
/** The daemon holding the attempts of the bed's tasks. */
const HOLDER = 'daemon-live-holder';
/** Another enrolled daemon: it may publish on `task.message.<any task>.<itself>`, nothing more. */
const FORGER = 'daemon-live-forger';

describe('gateway live WebSocket: only the holder of an attempt is shown (real NATS + Postgres)', () => {
  const bed = useLiveGateway({ token: TOKEN, taskPrefix: 'task-forgery', daemonId: HOLDER });

  async function publishMessage(options: { readonly taskId: string; readonly seq: number; readonly text: string; readonly publisher?: string; readonly attempt?: number }): Promise<EventOf<'task.message'>> {
    const { taskId, seq, publisher = HOLDER } = options;
    const message: AgentMessage = { type: 'text', text: options.text };
    const event = createEvent({ type: 'task.message', payload: { taskId, seq, attempt: options.attempt ?? 1, message } });
    await publish(bed.bus, { subject: subjects.forEvent(event, publisher), data: event, messageId: messageIds.taskMessage({ publisher, taskId, seq }) });
    return event;
  }

  const textsOf = (frames: readonly ServerFrame[], taskId: string): string[] =>
    frames.flatMap((frame) => (frame.type === 'timeline' && frame.taskId === taskId && frame.entry.content !== null ? [frame.entry.content] : []));

  it('skips a forged message in the stream and shows the holder’s message of the same seq, replayed and live', async () => {
    const taskId = await bed.newTask();
    // Given the holder's seq 0, then a forgery of seq 1 stored ahead of the holder's seq 1
    await publishMessage({ taskId, seq: 0, text: 'holder 0' });
    await publishMessage({ taskId, seq: 1, text: 'forged 1', publisher: FORGER });
    await publishMessage({ taskId, seq: 1, text: 'holder 1' });
    const viewer = await bed.connect(TOKEN);
    viewer.send({ type: 'subscribe', taskId });
    await viewer.waitFor((frames) => seqsReceived(frames, taskId).length === 2);
    // When, live, a forgery of the next seq and one far ahead come before the holder's next seq
    await publishMessage({ taskId, seq: 2, text: 'forged 2', publisher: FORGER });
    await publishMessage({ taskId, seq: 50, text: 'forged 50', publisher: FORGER });
    await publishMessage({ taskId, seq: 2, text: 'holder 2' });
    await publishMessage({ taskId, seq: 3, text: 'holder 3' });
    await viewer.waitFor((frames) => seqsReceived(frames, taskId).includes(3));
    // Then the client has the holder's messages only, each seq once and none held back
    expect(seqsReceived(viewer.frames, taskId)).toEqual([0, 1, 2, 3]);
    expect(textsOf(viewer.frames, taskId)).toEqual(['holder 0', 'holder 1', 'holder 2', 'holder 3']);
  });

  it('checks an earlier attempt against its claim and the current one against the queue row', async () => {
    const taskId = await bed.newTask();
    // Given attempt 1 held by the holder, attempt 2 (the current one) by the other daemon
    await bed.holdAttempt({ taskId, attempt: 2, daemonId: FORGER });
    // When each publishes a seq for its own attempt and one for the other's, the forgery first
    await publishMessage({ taskId, seq: 0, text: 'attempt 1 by the other', attempt: 1, publisher: FORGER });
    await publishMessage({ taskId, seq: 0, text: 'attempt 1 by its holder', attempt: 1 });
    await publishMessage({ taskId, seq: 1, text: 'attempt 2 by the first holder', attempt: 2 });
    await publishMessage({ taskId, seq: 1, text: 'attempt 2 by its holder', attempt: 2, publisher: FORGER });
    const viewer = await bed.connect(TOKEN);
    viewer.send({ type: 'subscribe', taskId });
    await viewer.waitFor((frames) => seqsReceived(frames, taskId).includes(1));
    // Then each seq is its attempt's holder's
    expect(seqsReceived(viewer.frames, taskId)).toEqual([0, 1]);
    expect(textsOf(viewer.frames, taskId)).toEqual(['attempt 1 by its holder', 'attempt 2 by its holder']);
  });

  it('does not let a forgery first in the stream hide the rows only the view holds', async () => {
    const taskId = await bed.newTask();
    // Given rows aged out of the stream (only the view has seqs 0-2), a forged seq 0 left in it, then the holder's seq 3
    for (const seq of [0, 1, 2]) {
      await bed.database.query(`insert into task_message (id, task_id, seq, attempt, type, content, created_at) values (gen_random_uuid(), $1, $2, 1, 'text', $3, now())`, [taskId, seq, `old ${seq}`]);
    }
    await publishMessage({ taskId, seq: 0, text: 'forged 0', publisher: FORGER });
    await publishMessage({ taskId, seq: 3, text: 'holder 3' });
    // The stream's first message is the holder's seq 3, not the forged 0: so the feed reads seqs 0-2
    // from the view up front (had the forgery counted, they would come only after the gap wait).
    const shown = (subject: string): Promise<boolean> => Promise.resolve(subjects.publisherOf(subject) === HOLDER);
    await expect(firstStreamedMessageSeq({ connection: bed.bus, taskId, isShown: shown })).resolves.toBe(3);
    const viewer = await bed.connect(TOKEN);
    viewer.send({ type: 'subscribe', taskId });
    await viewer.waitFor((frames) => seqsReceived(frames, taskId).includes(3));
    expect(textsOf(viewer.frames, taskId)).toEqual(['old 0', 'old 1', 'old 2', 'holder 3']);
  });
});
