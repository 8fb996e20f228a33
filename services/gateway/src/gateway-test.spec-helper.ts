import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { SERVICE_PUBLISHERS, STREAM_CATALOG, createEvent, runtimeIdOf, subjects, uuidv7, type EventType, type PayloadOf, type RuntimeRegisteredPayload, type SwitchyardEvent, type TaskEnqueuedPayload, type TaskState } from '@switchyard/contracts';
import { durableConsumerBacklog, publish, type MessagingConnection } from '@switchyard/messaging';
import { sampleAgentSnapshot, startServiceForTest, uniqueNamespace, type ServiceUnderTest, connectTestMessaging } from '@switchyard/testing';
import { generateSecretKey, parseSecretKeys, secretKeyring } from '@switchyard/persistence';
import { gatewayApp } from './gateway.app';
import { RUNTIME_VIEW_CONSUMER } from './workspace/runtimes/runtime-view.projector';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response bodies loosely; the schemas are proven by the OpenAPI test
type LooseJson = any;

export interface ApiResponse<Body = LooseJson> {
  readonly status: number;
  readonly body: Body;
}

/** `items.map((item) => item[field])` over a loosely typed response list. */
export function pluck(items: unknown, field: string): unknown[] {
  return (items as Array<Record<string, unknown>>).map((item) => item[field]);
}

/** The first item of a loosely typed response list whose `field` equals `value`. */
export function findBy(items: unknown, field: string, value: unknown): LooseJson {
  return (items as Array<Record<string, unknown>>).find((item) => item[field] === value);
}

/** Polls until `probe` holds; fails with `description` at the deadline. */
export async function waitUntil(probe: () => Promise<boolean>, description: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * A `runtime.registered` payload of a workspace's runtime, `daemon-test`'s unless `overrides` name
 * another daemon; its runtime id is under that daemon's id, as the gateway requires.
 */
export function runtimeRegistration(workspaceId: string, overrides: Partial<RuntimeRegisteredPayload> = {}): RuntimeRegisteredPayload {
  const daemonId = overrides.daemonId ?? 'daemon-test';
  return {
    daemonId,
    workspaceId,
    runtimeId: runtimeIdOf(daemonId, uniqueNamespace('runtime')),
    identity: 'claude-code',
    provider: 'anthropic',
    version: '2.1.197',
    protocolFamily: 'claude-stream-json',
    commandName: 'claude',
    profileId: null,
    capacity: 20,
    models: [],
    ...overrides,
  };
}

export interface TestWorkspace {
  readonly id: string;
  readonly token: string;
}

/**
 * A gateway booted in this process on the real NATS and a fresh migrated Postgres, with a
 * bootstrap token, a database client and a NATS connection in the gateway's namespace.
 */
const TEST_GATEWAY_SECRET_KEY = generateSecretKey();

export class GatewayTestKit {
  private constructor(
    readonly gateway: ServiceUnderTest,
    readonly bootstrapToken: string,
    readonly database: Client,
    readonly messaging: MessagingConnection,
  ) {}

  /** The gateway's `GATEWAY_SECRET_KEYS`, so a test can open what the `agent` table keeps. */
  readonly secretKeyring = secretKeyring(parseSecretKeys(TEST_GATEWAY_SECRET_KEY));
  readonly secretKeyringText = TEST_GATEWAY_SECRET_KEY;

  static async start(env: NodeJS.ProcessEnv = {}): Promise<GatewayTestKit> {
    const bootstrapToken = `sy_${randomBytes(24).toString('base64url')}`;
    const gateway = await startServiceForTest(gatewayApp, {
      database: true,
      env: { GATEWAY_BOOTSTRAP_TOKEN: bootstrapToken, GATEWAY_SECRET_KEYS: TEST_GATEWAY_SECRET_KEY, ...env },
    });
    const database = new Client({ connectionString: gateway.databaseUrl });
    await database.connect();
    const messaging = await connectTestMessaging({ name: 'gateway-test-kit', namespace: gateway.namespace });
    return new GatewayTestKit(gateway, bootstrapToken, database, messaging);
  }

  async stop(): Promise<void> {
    await this.messaging.close();
    await this.database.end();
    await this.gateway.stop();
  }

  async request<Body = LooseJson>(method: string, path: string, options: { token?: string | undefined; body?: unknown; headers?: Record<string, string> } = {}): Promise<ApiResponse<Body>> {
    const response = await fetch(`${this.gateway.url}${path}`, {
      method,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Not JSON (e.g. the docs UI): the text as it is.
    }
    return { status: response.status, body: body as Body };
  }

  /** A caller bound to one token. */
  as(token: string): { get: Verb; post: Verb; patch: Verb; delete: Verb } {
    const verb =
      (method: string): Verb =>
      <Body = LooseJson>(path: string, body?: unknown, headers?: Record<string, string>) =>
        this.request<Body>(method, path, { token, body, ...(headers ? { headers } : {}) });
    return { get: verb('GET'), post: verb('POST'), patch: verb('PATCH'), delete: verb('DELETE') };
  }

  /** A new workspace through the API, with its first token. */
  async workspace(name = 'Team'): Promise<TestWorkspace> {
    const created = await this.request<{ workspace: { id: string }; token: { token: string } }>('POST', '/api/workspaces', {
      token: this.bootstrapToken,
      body: { name },
    });
    if (created.status !== 201) throw new Error(`workspace not created: ${created.status} ${JSON.stringify(created.body)}`);
    return { id: created.body.workspace.id, token: created.body.token.token };
  }

  /** Rows of a workspace-scoped table, to prove a refused request wrote nothing. */
  async countRows(table: string, workspaceId: string): Promise<number> {
    return Number((await this.query<{ count: string }>(`select count(*) as count from ${table} where workspace_id = $1`, [workspaceId]))[0]!.count);
  }

  async query<Row extends Record<string, unknown>>(sql: string, parameters: unknown[] = []): Promise<Row[]> {
    return (await this.database.query<Row>(sql, parameters)).rows;
  }

  async count(table: string): Promise<number> {
    const [row] = await this.query<{ count: string }>(`select count(*) as count from ${table}`);
    return Number(row?.count);
  }

  /** Publishes a runtime event the way daemons do (JetStream, msg id = event id). */
  async publishRuntimeEvent<TType extends Extract<EventType, `runtime.${string}`>>(type: TType, payload: PayloadOf<TType>, occurredAt: Date = new Date()): Promise<void> {
    const envelope: SwitchyardEvent = createEvent({ type, payload, occurredAt });
    await publish(this.messaging, { subject: subjects.forEvent(envelope, payload.daemonId), data: envelope, messageId: envelope.eventId });
  }

  /** Waits until the runtime view's consumer has handled (acked) every runtime event published so far. */
  async runtimeEventsProjected(): Promise<void> {
    await waitUntil(
      async () => (await durableConsumerBacklog(this.messaging, { stream: STREAM_CATALOG.RUNTIME_EVENTS.name, name: RUNTIME_VIEW_CONSUMER })) === 0,
      'every runtime event is projected',
    );
  }

  /** Registers a runtime of a workspace and waits until the gateway's view has it. */
  async registerRuntime(workspaceId: string, overrides: Partial<RuntimeRegisteredPayload> = {}, occurredAt = new Date()): Promise<RuntimeRegisteredPayload> {
    const payload = runtimeRegistration(workspaceId, overrides);
    await this.publishRuntimeEvent('runtime.registered', payload, occurredAt);
    await waitUntil(
      async () => (await this.query('select 1 from runtime_view where runtime_id = $1 and workspace_id = $2', [payload.runtimeId, workspaceId])).length > 0,
      `runtime ${payload.runtimeId} is in the view`,
    );
    return payload;
  }

  /**
   * A task as the queue would have written it: its `agent_task_queue` row and its `task.enqueued`
   * event in `outbox_event`, in one transaction.
   */
  async insertTask(options: {
    readonly workspaceId: string;
    readonly status?: TaskState;
    readonly enqueuedAt?: Date;
    readonly failureReason?: string | null;
    readonly enqueued?: Partial<Omit<TaskEnqueuedPayload, 'workspaceId'>>;
  }): Promise<string> {
    const payload: TaskEnqueuedPayload = {
      taskId: uuidv7(),
      agentId: 'agent-direct',
      agent: sampleAgentSnapshot({ env: { SECRET_TOKEN: 'do-not-leak' } }),
      runtimeId: 'runtime-direct',
      source: { kind: 'quick_create' },
      priority: 0,
      prompt: 'Fix the flaky test',
      forceFreshSession: false,
      maxAttempts: 2,
      expiresAt: null,
      retryOfTaskId: null,
      ...options.enqueued,
      workspaceId: options.workspaceId,
    };
    const enqueuedAt = options.enqueuedAt ?? new Date();
    const status = options.status ?? 'queued';
    const terminal = status === 'completed' || status === 'failed' || status === 'cancelled';
    const envelope = createEvent({ type: 'task.enqueued', payload, occurredAt: enqueuedAt });
    const { source } = payload;
    await this.database.query('begin');
    try {
      await this.database.query(
        `insert into agent_task_queue (task_id, workspace_id, agent_id, runtime_id, source_kind, issue_id, chat_session_id, priority, status,
                                       attempt, max_attempts, enqueued_at, expires_at, failure_reason, terminal_at, version)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 1)`,
        [
          payload.taskId,
          payload.workspaceId,
          payload.agentId,
          payload.runtimeId,
          source.kind,
          source.kind === 'issue' ? source.issueId : null,
          source.kind === 'chat' ? source.chatSessionId : null,
          payload.priority,
          status,
          status === 'queued' ? 0 : 1,
          payload.maxAttempts,
          enqueuedAt,
          payload.expiresAt,
          options.failureReason ?? null,
          terminal ? new Date() : null,
        ],
      );
      await this.database.query(
        `insert into outbox_event (id, aggregate_id, version, type, subject, payload, occurred_at) values ($1, $2, 1, 'task.enqueued', $3, $4::jsonb, $5)`,
        [envelope.eventId, payload.taskId, subjects.forEvent(envelope, SERVICE_PUBLISHERS.queue), JSON.stringify(envelope), enqueuedAt],
      );
      await this.database.query('commit');
    } catch (error) {
      await this.database.query('rollback');
      throw error;
    }
    return payload.taskId;
  }

  async setTaskStatus(taskId: string, status: TaskState): Promise<void> {
    await this.database.query(
      `update agent_task_queue set status = $2, terminal_at = case when $2 in ('completed', 'failed', 'cancelled') then now() else null end, updated_at = now()
        where task_id = $1`,
      [taskId, status],
    );
  }

  /** A task event appended to the record (`outbox_event`) after the ones it has. */
  async appendTaskEvent<TType extends Extract<EventType, `task.${string}`>>(type: TType, payload: PayloadOf<TType>): Promise<void> {
    const envelope: SwitchyardEvent = createEvent({ type, payload });
    const taskId = (payload as { taskId: string }).taskId;
    await this.database.query(
      `insert into outbox_event (id, aggregate_id, version, type, subject, payload, occurred_at)
       select $1, $2, coalesce(max(version), 0) + 1, $3, $4, $5::jsonb, $6 from outbox_event where aggregate_id = $2`,
      [envelope.eventId, taskId, type, subjects.forEvent(envelope, SERVICE_PUBLISHERS.queue), JSON.stringify(envelope), envelope.occurredAt],
    );
  }
}

type Verb = <Body = LooseJson>(path: string, body?: unknown, headers?: Record<string, string>) => Promise<ApiResponse<Body>>;
