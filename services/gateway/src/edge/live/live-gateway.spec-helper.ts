import { Client } from 'pg';
import { type MessagingConnection } from '@switchyard/messaging';
import { startServiceForTest, type ServiceUnderTest, connectTestMessaging } from '@switchyard/testing';
import { gatewayApp } from '../../gateway.app';
import { connectLiveClient, type LiveTestClient } from './live-client.spec-helper';

/** One gateway per live spec file, a database client, a publisher on its namespace, and clients closed after each test. */
export interface LiveGatewayBed {
  readonly gateway: ServiceUnderTest;
  readonly database: Client;
  readonly bus: MessagingConnection;
  /** A running task of `workspaceId` in the queue's view, as the feed's workspace check reads it. */
  newTask(workspaceId?: string): Promise<string>;
  /** A live client, closed after the test. */
  connect(token: string | null): Promise<LiveTestClient>;
}

/** Registers the jest hooks; the bed's fields are there from the first test on. */
export function useLiveGateway(options: { readonly token: string; readonly taskPrefix: string }): LiveGatewayBed {
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
        `insert into agent_task_queue (task_id, workspace_id, agent_id, runtime_id, source_kind, priority, status, attempt, max_attempts, enqueued_at, version)
         values ($1, $2, 'agent-1', 'runtime-1', 'quick_create', 0, 'running', 1, 2, now(), 1)`,
        [taskId, workspaceId],
      );
      return taskId;
    },
    async connect(token) {
      const client = await connectLiveClient(started(gateway).url, token === null ? {} : { token });
      clients.push(client);
      return client;
    },
  };
}
