import { Client } from 'pg';
import { createCommand, subjects, type CommandName, type CommandPayloadOf, type CommandReply, type CommandResultOf } from '@switchyard/contracts';
import { connectMessaging, requestReply, type MessagingConnection } from '@switchyard/messaging';
import { sampleAgentSnapshot, testNatsUrl, type ServiceUnderTest } from '@switchyard/testing';

/** Talks to a queue under test the way daemons and the gateway do: commands over NATS. */
export class QueueTestClient {
  private constructor(
    private readonly connection: MessagingConnection,
    private readonly database: Client,
  ) {}

  static async connect(queue: ServiceUnderTest): Promise<QueueTestClient> {
    const connection = await connectMessaging({ url: testNatsUrl(), name: 'queue-test-client', namespace: queue.namespace });
    const database = new Client({ connectionString: queue.databaseUrl });
    await database.connect();
    return new QueueTestClient(connection, database);
  }

  async send<TName extends CommandName>(
    command: TName,
    payload: CommandPayloadOf<TName>,
    requestId?: string,
  ): Promise<CommandReply<CommandResultOf<TName>>> {
    const envelope = createCommand({ command, payload, ...(requestId ? { requestId } : {}) }) as { requestId: string };
    return requestReply<unknown, CommandResultOf<TName>>(this.connection, {
      subject: subjects.command(command),
      data: envelope,
      requestId: envelope.requestId,
      timeoutMs: 30_000,
    });
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
