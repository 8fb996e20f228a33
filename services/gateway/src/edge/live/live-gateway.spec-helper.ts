import { Client } from 'pg';
import { SERVICE_PUBLISHERS, createEvent, subjects } from '@switchyard/contracts';
import { type MessagingConnection } from '@switchyard/messaging';
import { startServiceForTest, type ServiceUnderTest, connectTestMessaging } from '@switchyard/testing';
import { gatewayApp } from '../../gateway.app';
import { connectLiveClient, type LiveTestClient } from './live-client.spec-helper';

/** One gateway per live spec file, a database client, a publisher on its namespace, and clients closed after each test. */
export interface LiveGatewayBed {
  readonly gateway: ServiceUnderTest;
  readonly database: Client;
  readonly bus: MessagingConnection;
  /**
   * A running task of `workspaceId` in the queue's view, as the feed's workspace check reads it,
   * its first attempt held by the bed's daemon.
   */
  newTask(workspaceId?: string): Promise<string>;
  /**
   * Makes `daemonId` (the bed's daemon by default) the holder of a later attempt, as the queue's
   * claim writes it: the `task.claimed` event in the record, and the queue row moved to it.
   */
  holdAttempt(options: { readonly taskId: string; readonly attempt: number; readonly daemonId?: string }): Promise<void>;
  /** A live client, closed after the test. */
  connect(token: string | null): Promise<LiveTestClient>;
}

/** Registers the jest hooks; the bed's fields are there from the first test on. `daemonId` holds the attempts of its tasks. */
export function useLiveGateway(options: { readonly token: string; readonly taskPrefix: string; readonly daemonId?: string }): LiveGatewayBed {
  const holder = options.daemonId ?? 'daemon-live';
  let gateway: ServiceUnderTest | undefined;
  let database: Client | undefined;
  let bus: MessagingConnection | undefined;
  const clients: LiveTestClient[] = [];
  let taskCounter = 0;

  beforeAll(async () => {
    gateway = await startServiceForTest(gatewayApp, { database: true, env: { GATEWAY_BOOTSTRAP_TOKEN: options.token } });
    database = new Client({ connectionString: gateway.databaseUrl });
    await database.connect();
    bus = await connectTestMessaging({ name: `${options.taskPrefix}-publisher`, namespace: gateway.namespace });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await database?.end();
    await bus?.close();
    await gateway?.stop();
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the live gateway bed is used before its beforeAll ran');
    return value;
  };
  /** The `task.claimed` event the queue's claim records for an attempt (how earlier attempts' holders are known). */
  const recordClaim = async (claim: { readonly taskId: string; readonly attempt: number; readonly daemonId: string }): Promise<void> => {
    const claimed = createEvent({ type: 'task.claimed', payload: { ...claim, runtimeId: 'runtime-1', startBy: new Date(Date.now() + 60_000).toISOString() } });
    await started(database).query(
      `insert into outbox_event (id, aggregate_id, version, type, subject, payload, occurred_at, published_at) values ($1, $2, $3, 'task.claimed', $4, $5, now(), now())`,
      [claimed.eventId, claim.taskId, claim.attempt, subjects.forEvent(claimed, SERVICE_PUBLISHERS.queue), JSON.stringify(claimed)],
    );
  };
  return {
    get gateway() {
      return started(gateway);
    },
    get database() {
      return started(database);
    },
    get bus() {
      return started(bus);
    },
    async newTask(workspaceId = 'default') {
      taskCounter += 1;
      const taskId = `${options.taskPrefix}-${taskCounter}-${Date.now()}`;
      await started(database).query(
        `insert into agent_task_queue (task_id, workspace_id, agent_id, runtime_id, source_kind, priority, status, attempt, max_attempts, enqueued_at, daemon_id, version)
         values ($1, $2, 'agent-1', 'runtime-1', 'quick_create', 0, 'running', 1, 2, now(), $3, 1)`,
        [taskId, workspaceId, holder],
      );
      await recordClaim({ taskId, attempt: 1, daemonId: holder });
      return taskId;
    },
    async holdAttempt({ taskId, attempt, daemonId = holder }) {
      await recordClaim({ taskId, attempt, daemonId });
      await started(database).query('update agent_task_queue set attempt = $2, daemon_id = $3, max_attempts = greatest(max_attempts, $2) where task_id = $1', [taskId, attempt, daemonId]);
    },
    async connect(token) {
      const client = await connectLiveClient(started(gateway).url, token === null ? {} : { token });
      clients.push(client);
      return client;
    },
  };
}
