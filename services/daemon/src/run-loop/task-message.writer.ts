import { createHmac } from 'node:crypto';
import { createEvent, messageIds, subjects, type AgentMessage, type ClaimedTask } from '@switchyard/contracts';
import type { MessageSanitizer } from '@switchyard/redaction';
import type { TaskMessageOutbox } from '../outbox/task-message.outbox';

/**
 * Messages of one run handed to the outbox but not yet on disk. Below this the run reads the CLI's
 * next message at once, so a busy run's lines share outbox writes; above it the run waits, and the
 * session's backpressure pauses the CLI.
 */
export const MAX_UNWRITTEN_MESSAGES = 256;

export interface TaskMessageWriter {
  /** Numbers the message (its seq) and hands it to the outbox; waits only while too many are unwritten. */
  write(message: AgentMessage): Promise<void>;
  /** Every message written so far is on disk (rejects with the first write that failed); then no more come. */
  close(): Promise<void>;
  /** Messages numbered so far. */
  readonly count: number;
}

/**
 * The run's side of the timeline: seqs from 0 in order, secrets redacted before anything leaves the
 * machine (the projector redacts again), each message durable in the outbox before it is published
 * on `task.message.<taskId>.<daemonId>` with `Nats-Msg-Id` `<daemonId>:<taskId>:<seq>:<proof>` (kept
 * in the outbox line, so a restarted daemon republishes under the same id; the proof is keyed by the
 * lease token, so no other daemon can take the id first).
 * The run does not wait for each message's disk write, only for the oldest beyond the window.
 */
/** 128 bits of HMAC-SHA256(lease token, `<taskId>:<attempt>:<seq>`): only the attempt's holder has the key. */
function taskMessageProof(task: Pick<ClaimedTask, 'taskId' | 'attempt' | 'leaseToken'>, seq: number): string {
  return createHmac('sha256', task.leaseToken).update(`${task.taskId}:${task.attempt}:${seq}`).digest('base64url').slice(0, 22);
}

export function createTaskMessageWriter(options: {
  readonly task: ClaimedTask;
  /** This daemon's id: the subject's publisher token and part of each message's dedupe id. */
  readonly publisher: string;
  readonly outbox: TaskMessageOutbox;
  readonly sanitize: MessageSanitizer;
}): TaskMessageWriter {
  const { task, publisher, outbox, sanitize } = options;
  let seq = 0;
  let failure: { readonly error: unknown } | undefined;
  // Settled in order: the outbox writes a task's lines in call order.
  const unwritten: Array<Promise<void>> = [];
  const throwIfFailed = (): void => {
    if (failure) throw failure.error;
  };

  return {
    async write(message) {
      throwIfFailed();
      const envelope = createEvent({ type: 'task.message', payload: { taskId: task.taskId, seq, attempt: task.attempt, message: sanitize(message) } });
      const written = outbox.enqueue({
        taskId: task.taskId,
        seq,
        subject: subjects.forEvent(envelope, publisher),
        messageId: messageIds.taskMessage({ publisher, taskId: task.taskId, seq, proof: taskMessageProof(task, seq) }),
        body: envelope,
      });
      seq += 1;
      unwritten.push(
        written.catch((error: unknown) => {
          failure ??= { error };
        }),
      );
      while (unwritten.length > MAX_UNWRITTEN_MESSAGES) await unwritten.shift();
      throwIfFailed();
    },
    async close() {
      try {
        await Promise.all(unwritten.splice(0));
        throwIfFailed();
      } finally {
        await outbox.closeTask(task.taskId);
      }
    },
    get count() {
      return seq;
    },
  };
}
