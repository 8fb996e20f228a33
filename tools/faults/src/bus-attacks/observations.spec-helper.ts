import { HEADERS, STREAM_CATALOG, type StreamName } from '@switchyard/contracts';
import type { MessagingConnection } from '@switchyard/messaging';
import { consumerState, readStream, type StoredMessageView } from '@switchyard/messaging/testing';
import { until, type AttackSystem } from './attack-system.spec-helper';

/** What a forged report or cancel could change about a task: it must stay exactly this. */
export interface TaskFacts {
  readonly status: string;
  readonly attempt: number;
  readonly daemon_id: string | null;
  readonly failure_reason: string | null;
}

export async function taskFacts(system: AttackSystem, taskId: string): Promise<TaskFacts | undefined> {
  const [row] = await system.query<TaskFacts>('select status, attempt, daemon_id, failure_reason from agent_task_queue where task_id = $1', [taskId]);
  return row;
}

/** Of these request ids, the ones the queue recorded as processed (a refused command records none). */
export async function recordedRequests(system: AttackSystem, requestIds: readonly string[]): Promise<string[]> {
  const rows = await system.query<{ request_id: string }>('select request_id from processed_command where request_id = any($1::text[])', [requestIds]);
  return rows.map((row) => row.request_id);
}

/** Rows per table the attacks must not add to (claims excepted: the victim claims on every nudge). */
export async function tableCounts(system: AttackSystem): Promise<Record<string, number>> {
  const counted = {
    agent_task_queue: 'select count(*) from agent_task_queue',
    processed_command: "select count(*) from processed_command where command_type <> 'task.claim'",
    outbox_event: 'select count(*) from outbox_event',
    task_message: 'select count(*) from task_message',
    task_usage: 'select count(*) from task_usage',
    runtime_view: 'select count(*) from runtime_view',
    runtime_presence: 'select count(*) from runtime_presence',
    chat_message: 'select count(*) from chat_message',
  };
  const entries = await Promise.all(Object.entries(counted).map(async ([table, sql]) => [table, Number((await system.query<{ count: string }>(sql))[0]!.count)] as const));
  return Object.fromEntries(entries);
}

export interface DeadLetter {
  readonly subject: string;
  readonly consumer: string;
  readonly reason: string;
  readonly text: string;
}

export async function deadLetters(connection: MessagingConnection): Promise<DeadLetter[]> {
  return (await readStream(connection, STREAM_CATALOG.DEAD_LETTERS.name)).map((message) => ({
    subject: message.headers[HEADERS.deadLetterSubject] ?? '',
    consumer: message.headers[HEADERS.deadLetterConsumer] ?? '',
    reason: message.headers[HEADERS.deadLetterReason] ?? '',
    text: message.text,
  }));
}

/** Resolves once the durable consumer has settled (acked, or dead-lettered and terminated) the stream message `seq`. */
export async function consumerPassed(connection: MessagingConnection, options: { readonly stream: StreamName; readonly consumer: string; readonly seq: number }): Promise<void> {
  await until(
    async () => {
      const state = await consumerState(connection, { stream: options.stream, name: options.consumer });
      return state.ackFloorStreamSequence >= options.seq || (state.deliveredStreamSequence >= options.seq && state.ackPending === 0);
    },
    { description: `consumer ${options.consumer} to pass ${options.stream} #${options.seq}` },
  );
}

/** The timeline messages of a task as the stream holds them, with the publisher (the subject's last token). */
export async function storedTaskMessages(connection: MessagingConnection, taskId: string): Promise<Array<{ readonly seq: number; readonly type: string; readonly publisher: string; readonly eventId: string }>> {
  return (await readStream(connection, STREAM_CATALOG.TASK_EVENTS.name))
    .filter((message) => message.subject.startsWith(`task.message.${taskId}.`))
    .map((message) => {
      const envelope = JSON.parse(message.text) as { eventId: string; payload: { seq: number; message: { type: string } } };
      return { seq: envelope.payload.seq, type: envelope.payload.message.type, publisher: message.subject.split('.').at(-1) ?? '', eventId: envelope.eventId };
    });
}

/** Every place one of the secrets shows up: stream messages (body or headers), the record's rows, and the sealed stores. */
export async function secretSightings(system: AttackSystem, secrets: readonly string[]): Promise<string[]> {
  const contains = (text: string): boolean => secrets.some((secret) => text.includes(secret));
  const sightings: string[] = [];
  for (const stream of ['TASK_EVENTS', 'RUNTIME_EVENTS', 'SESSION_EVENTS', 'DEAD_LETTERS'] as const) {
    const messages: StoredMessageView[] = await readStream(system.system.connection, STREAM_CATALOG[stream].name);
    for (const message of messages) if (contains(message.text) || contains(JSON.stringify(message.headers))) sightings.push(`${stream} #${message.seq} ${message.subject}`);
  }
  const outbox = await system.query<{ id: string; type: string; row: string }>('select id, type, row_to_json(outbox_event)::text as row from outbox_event');
  for (const row of outbox) if (contains(row.row)) sightings.push(`outbox_event ${row.id} (${row.type})`);
  const processed = await system.query<{ request_id: string; command_type: string; row: string }>(
    'select request_id, command_type, row_to_json(processed_command)::text as row from processed_command',
  );
  for (const row of processed) if (contains(row.row)) sightings.push(`processed_command ${row.request_id} (${row.command_type})`);
  // Where the values are kept: sealed, so the rows hold none of them either.
  const agents = await system.query<{ id: string; row: string }>('select id, row_to_json(agent)::text as row from agent');
  for (const row of agents) if (contains(row.row)) sightings.push(`agent ${row.id}`);
  const bundles = await system.query<{ bundle_id: string; row: string }>('select bundle_id, row_to_json(task_secret_bundle)::text as row from task_secret_bundle');
  for (const row of bundles) if (contains(row.row)) sightings.push(`task_secret_bundle ${row.bundle_id}`);
  return sightings;
}
