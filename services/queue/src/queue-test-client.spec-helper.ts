import { Client } from 'pg';
import { createCommand, createEvent, isDaemonCommand, subjects, type CommandName, type CommandPayloadOf, type CommandReply, type CommandResultOf } from '@switchyard/contracts';
import { publish, requestReply, type MessagingConnection } from '@switchyard/messaging';
import { sampleAgentSnapshot, type ServiceUnderTest, connectTestMessaging } from '@switchyard/testing';

/** Talks to a queue under test the way daemons and the gateway do: commands over NATS. */
export class QueueTestClient {
  private constructor(
    private readonly connection: MessagingConnection,
    private readonly database: Client,
  ) {}

  static async connect(queue: ServiceUnderTest): Promise<QueueTestClient> {
    const connection = await connectTestMessaging({ name: 'queue-test-client', namespace: queue.namespace });
    const database = new Client({ connectionString: queue.databaseUrl });
    await database.connect();
    return new QueueTestClient(connection, database);
  }

  /** Sends as the daemon the payload names (a daemon-sent command) or as a service. */
  async send<TName extends CommandName>(
    command: TName,
    payload: CommandPayloadOf<TName>,
    requestId?: string,
  ): Promise<CommandReply<CommandResultOf<TName>>> {
    const sender = isDaemonCommand(command) ? (payload as { daemonId: string }).daemonId : undefined;
    return this.sendAs(sender, command, payload, requestId);
  }

  /** Sends a daemon-sent command on `sender`'s subject, whatever the payload says. */
  async sendAs<TName extends CommandName>(
    sender: string | undefined,
    command: TName,
    payload: CommandPayloadOf<TName>,
    requestId?: string,
  ): Promise<CommandReply<CommandResultOf<TName>>> {
    const envelope = createCommand({ command, payload, ...(requestId ? { requestId } : {}) }) as { requestId: string };
    const subjectOf = subjects.command as (name: CommandName, sender?: string) => string;
    return requestReply<unknown, CommandResultOf<TName>>(this.connection, {
      subject: sender === undefined ? subjectOf(command) : subjectOf(command, sender),
      data: envelope,
      requestId: envelope.requestId,
      timeoutMs: 30_000,
    });
  }

  /** Publishes a heartbeat of the runtime as `daemonId` and returns its subject, without waiting for the queue. */
  async publishHeartbeat(runtimeId: string, daemonId: string): Promise<string> {
    const envelope = createEvent({ type: 'runtime.heartbeat', payload: { daemonId, runtimeId, activeTaskIds: [], freeSlots: 1 } });
    const subject = subjects.runtimeHeartbeat(runtimeId, daemonId);
    await publish(this.connection, { subject, data: envelope, messageId: envelope.eventId });
    return subject;
  }

  /** Publishes a heartbeat of the runtime as `daemonId` and waits until the queue has it as the runtime's daemon. */
  async heartbeat(runtimeId: string, daemonId: string): Promise<void> {
    await this.publishHeartbeat(runtimeId, daemonId);
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 25))) {
      const rows = await this.query<{ daemon_id: string }>('select daemon_id from runtime_presence where runtime_id = $1', [runtimeId]);
      if (rows[0]?.daemon_id === daemonId) return;
    }
    throw new Error(`the queue did not record ${daemonId} as the daemon of ${runtimeId}`);
  }

  /** Like `send`, for commands that must succeed; returns the result. */
  async expectOk<TName extends CommandName>(command: TName, payload: CommandPayloadOf<TName>, requestId?: string): Promise<CommandResultOf<TName>> {
    const reply = await this.send(command, payload, requestId);
    if (!reply.ok) throw new Error(`${command} refused: ${reply.error.code} ${reply.error.message}`);
    return reply.result;
  }

  /** The task's event types in version order, as stored (the record). */
  async storedEventTypes(taskId: string): Promise<string[]> {
    const result = await this.database.query<{ type: string }>('select type from outbox_event where aggregate_id = $1 order by version', [taskId]);
    return result.rows.map((row) => row.type);
  }

  async query<Row extends Record<string, unknown>>(sql: string, parameters: unknown[] = []): Promise<Row[]> {
    return (await this.database.query<Row>(sql, parameters)).rows;
  }

  get messaging(): MessagingConnection {
    return this.connection;
  }

  async close(): Promise<void> {
    await this.connection.close();
    await this.database.end();
  }
}

export function enqueuePayload(overrides: Partial<CommandPayloadOf<'task.enqueue'>> = {}): CommandPayloadOf<'task.enqueue'> {
  return {
    workspaceId: 'workspace-1',
    agentId: 'agent-1',
    agent: sampleAgentSnapshot(),
    runtimeId: 'runtime-1',
    source: { kind: 'quick_create' },
    priority: 0,
    prompt: 'Fix the flaky test',
    forceFreshSession: false,
    maxAttempts: null,
    fireAt: null,
    expiresAt: null,
    ...overrides,
  };
}
