import { TIMELINE_MESSAGE_TYPES, subjects } from '@switchyard/contracts';
import { FORGED_OUTPUT, forgedTaskMessage } from './attack-payloads';
import { until, type AttackSystem } from './attack-system.spec-helper';
import { publishEvent, type Attacker } from './attackers.spec-helper';
import { consumerPassed, deadLetters, storedTaskMessages } from './observations.spec-helper';

/** Unified message types the transcript stores as `task_message` rows. */
const ROW_TYPES: readonly string[] = TIMELINE_MESSAGE_TYPES;

/** A prompt whose run (the real CLI on the mock model) waits in a tool call until the gate file exists. */
export function gatedPrompt(gate: string): string {
  return `Hold on [[scenario:tool-command until test -e ${gate}; do sleep 0.2; done; echo gate-open]]`;
}

export function nonEmpty<T>(rows: T[]): T[] | undefined {
  return rows.length > 0 ? rows : undefined;
}

/**
 * Publishes a forged `task.message` (text) as `forger` on its own subject, with the message id it
 * chooses, and waits until the transcript's projector dealt with it. Returns its dead letter's reason.
 */
export async function forgeTimelineMessage(options: {
  readonly attack: AttackSystem;
  readonly forger: Attacker;
  readonly taskId: string;
  readonly seq: number;
  readonly messageId: string;
}): Promise<{ readonly eventId: string; readonly reason: string | undefined }> {
  const { attack, taskId } = options;
  const event = forgedTaskMessage({ taskId, seq: options.seq, attempt: 1, message: { type: 'text', text: `${FORGED_OUTPUT} (seq ${options.seq})` } });
  const subject = subjects.taskEvent({ type: 'task.message', taskId, publisher: options.forger.daemonId ?? '' });
  const seq = await publishEvent(options.forger, subject, event, options.messageId);
  await consumerPassed(attack.system.connection, { stream: 'TASK_EVENTS', consumer: 'transcript-timeline', seq });
  const letter = (await deadLetters(attack.system.connection)).find((candidate) => candidate.subject === subject && candidate.text.includes(event.eventId));
  return { eventId: event.eventId, reason: letter?.reason };
}

/** The holder's own timeline messages of a task as the stream holds them, by seq. */
export async function holderMessages(attack: AttackSystem, options: { readonly taskId: string; readonly holder: string }): Promise<Array<{ seq: number; type: string; eventId: string }>> {
  return (await storedTaskMessages(attack.system.connection, options.taskId)).filter((stored) => stored.publisher === options.holder).sort((left, right) => left.seq - right.seq);
}

/** The stored row of the holder's message `seq`, once projected (its type decides whether it makes one). */
export async function holderRow(attack: AttackSystem, options: { readonly taskId: string; readonly holder: string; readonly seq: number }): Promise<{ id: string } | 'no row for this type'> {
  const message = (await holderMessages(attack, options)).find((stored) => stored.seq === options.seq);
  if (!message) throw new Error(`the holder published no seq ${options.seq}`);
  if (!ROW_TYPES.includes(message.type)) return 'no row for this type';
  const [row] = await until(async () => nonEmpty(await attack.query<{ id: string }>('select id from task_message where task_id = $1 and seq = $2', [options.taskId, options.seq])), {
    description: `the row of seq ${options.seq}`,
  });
  return row!;
}
