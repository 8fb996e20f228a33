import { Client } from 'pg';
import {
  HEADERS,
  SERVICE_PUBLISHERS,
  SESSION_COMMAND_CATALOG,
  STREAM_CATALOG,
  messageIds,
  subjects,
  type CommandReply,
  type ResumeDecision,
  type SessionResolvePayload,
  type SwitchyardEvent,
  uuidv7,
} from '@switchyard/contracts';
import { publish, requestReply, type MessagingConnection } from '@switchyard/messaging';
import { readStream } from '@switchyard/messaging/testing';
import { type ServiceUnderTest, connectTestMessaging } from '@switchyard/testing';

/** The daemon the test bed stands in for: it publishes the session events and asks `session.resolve`. */
export const TEST_DAEMON_ID = 'daemon-test-bed';

/** Who publishes an event in the system: the daemon its session events, the queue's relay the rest. */
export function publisherOf(event: SwitchyardEvent): string {
  return event.type.startsWith('session.') ? TEST_DAEMON_ID : SERVICE_PUBLISHERS.queue;
}

/** Talks to a session-resume service under test as the rest of the system does: events in, `session.resolve` out. */
export class SessionResumeTestBed {
  private constructor(
    readonly connection: MessagingConnection,
    private readonly database: Client,
  ) {}

  static async connect(service: ServiceUnderTest): Promise<SessionResumeTestBed> {
    const connection = await connectTestMessaging({ name: 'session-resume-test', namespace: service.namespace });
    const database = new Client({ connectionString: service.databaseUrl });
    await database.connect();
    return new SessionResumeTestBed(connection, database);
  }

  /** Publishes events as the queue's relay and the daemons do; `copy` gives a redelivered duplicate a new message id. */
  async publish(events: readonly SwitchyardEvent[], options: { copy?: boolean } = {}): Promise<void> {
    for (const event of events) {
      await publish(this.connection, {
        subject: subjects.forEvent(event, publisherOf(event)),
        data: event,
        messageId: options.copy ? `${messageIds.forEvent(event, publisherOf(event))}:copy` : messageIds.forEvent(event, publisherOf(event)),
        headers: { [HEADERS.eventType]: event.type },
      });
    }
  }

  async publishRaw(subject: string, text: string): Promise<void> {
    await publish(this.connection, { subject, data: new TextEncoder().encode(text), messageId: uuidv7() });
  }

  async resolve(payload: SessionResolvePayload, requestId = uuidv7()): Promise<CommandReply<ResumeDecision>> {
    return this.send(SESSION_COMMAND_CATALOG['session.resolve'].request.parse({ requestId, command: 'session.resolve', schemaVersion: 1, correlationId: requestId, payload }));
  }

  /** Sends a request body as it is, valid or not. */
  async send(envelope: { requestId: string; [field: string]: unknown }): Promise<CommandReply<ResumeDecision>> {
    const { requestId } = envelope;
    return requestReply<unknown, ResumeDecision>(this.connection, {
      subject: subjects.command('session.resolve', TEST_DAEMON_ID),
      data: envelope,
      requestId,
      timeoutMs: 10_000,
      responseSchema: SESSION_COMMAND_CATALOG['session.resolve'].result,
    });
  }

  /** Asks until the answer is the expected one (the index is projected asynchronously), then returns it. */
  async eventually(payload: SessionResolvePayload, expected: ResumeDecision, timeoutMs = 15_000): Promise<CommandReply<ResumeDecision>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const reply = await this.resolve(payload);
      if (reply.ok && JSON.stringify(reply.result) === JSON.stringify(expected)) return reply;
      if (Date.now() > deadline) return reply;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Waits until the index has the task's row in the given state. */
  async indexed(taskId: string, predicate: (entry: Record<string, unknown>) => boolean): Promise<void> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const [row] = (await this.database.query<{ entry: Record<string, unknown> }>('select entry from session_resume_task where task_id = $1', [taskId])).rows;
      if (row && predicate(row.entry)) return;
      if (Date.now() > deadline) throw new Error(`task ${taskId} not indexed as expected: ${JSON.stringify(row?.entry)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async query<Row extends Record<string, unknown>>(sql: string, parameters: unknown[] = []): Promise<Row[]> {
    return (await this.database.query<Row>(sql, parameters)).rows;
  }

  async deadLetters(consumer: string): Promise<Array<{ subject: string; reason: string | undefined }>> {
    const stored = await readStream(this.connection, STREAM_CATALOG.DEAD_LETTERS.name);
    return stored
      .filter((entry) => entry.subject.endsWith(`.${consumer}`))
      .map((entry) => ({ subject: entry.headers[HEADERS.deadLetterSubject] ?? '', reason: entry.headers[HEADERS.deadLetterReason]?.split(':')[0] }));
  }

  async close(): Promise<void> {
    await this.connection.close();
    await this.database.end();
  }
}
