import { HEADERS } from '@switchyard/contracts';
import { catalogStreamDefinitions, provisionStreams, type MessagingConnection } from '@switchyard/messaging';
import { deleteNamespaceStreams, readStream } from '@switchyard/messaging/testing';
import { createDataSource, runMigrations } from '@switchyard/persistence';
import { createTestDatabase, itOnPostgresServer, uniqueNamespace, type TestDatabase, connectTestMessaging } from '@switchyard/testing';
import type { DataSource } from 'typeorm';
import { appendEvents } from '../store/event.store';
import type { StoredEvent } from '../store/stored-event.types';
import { SAMPLE_TRACEPARENT, deferred, taskMessageEvents, terminateSessions, waitUntil } from '../testing-support/event-store.spec-helper';
import { createOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './outbox.relay';

/** One relay "process": its own pg pool (named, so a test can kill its sessions) and NATS connection. */
interface RelayProcess {
  readonly applicationName: string;
  readonly dataSource: DataSource;
  readonly connection: MessagingConnection;
  readonly relay: OutboxRelay;
  close(): Promise<void>;
}

describe('outbox relay to JetStream', () => {
  const namespace = uniqueNamespace();
  let database: TestDatabase;
  let dataSource: DataSource;
  let connection: MessagingConnection;
  const processes: RelayProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    await runMigrations({ url: database.url });
    dataSource = createDataSource({ url: database.url, poolSize: 4, applicationName: 'relay-test-writer' });
    await dataSource.initialize();
    connection = await connectTestMessaging({ name: 'relay-test-reader', namespace });
    await provisionStreams(connection, catalogStreamDefinitions());
  });

  afterEach(async () => {
    await Promise.all(processes.splice(0).map((process) => process.close()));
  });

  afterAll(async () => {
    if (connection) {
      await deleteNamespaceStreams(connection);
      await connection.close();
    }
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  async function startRelayProcess(name: string, options: Partial<OutboxRelayOptions> = {}): Promise<RelayProcess> {
    const applicationName = `relay-${name}-${uniqueNamespace()}`;
    const processDataSource = createDataSource({ url: database.url, poolSize: 3, applicationName });
    await processDataSource.initialize();
    const processConnection = await connectTestMessaging({ name: applicationName, namespace });
    const relay = createOutboxRelay({ dataSource: processDataSource, connection: processConnection, pollIntervalMs: 50, name, ...options });
    relay.start();
    const process: RelayProcess = {
      applicationName,
      dataSource: processDataSource,
      connection: processConnection,
      relay,
      close: async () => {
        await relay.stop();
        await processConnection.close();
        if (processDataSource.isInitialized) await processDataSource.destroy();
      },
    };
    processes.push(process);
    return process;
  }

  /** Appends `count` events to each task in one transaction per task; returns the event ids per task. */
  async function appendRound(appended: Map<string, string[]>, count: number): Promise<void> {
    for (const [taskId, eventIds] of appended) {
      const result = await appendEvents({
        dataSource,
        aggregateId: taskId,
        expectedVersion: eventIds.length,
        events: taskMessageEvents(taskId, eventIds.length + 1, count),
      });
      eventIds.push(...result.events.map((event: StoredEvent) => event.eventId));
    }
  }

  const newTasks = (count: number): Map<string, string[]> =>
    new Map(Array.from({ length: count }, () => [`task-${uniqueNamespace()}`, [] as string[]]));

  async function unpublishedCount(appended: Map<string, string[]>): Promise<number> {
    const rows = await dataSource.query<Array<{ count: number }>>(
      'select count(*)::int as count from outbox_event where aggregate_id = any($1) and published_at is null',
      [[...appended.keys()]],
    );
    return rows[0]?.count ?? 0;
  }

  /** Message ids on the stream per task, in stream order. */
  async function streamedIds(appended: Map<string, string[]>): Promise<Map<string, string[]>> {
    const streamed = new Map<string, string[]>([...appended.keys()].map((taskId) => [taskId, [] as string[]]));
    for (const message of await readStream(connection, 'TASK_EVENTS')) {
      const taskId = message.subject.split('.').at(-1) ?? '';
      streamed.get(taskId)?.push(message.headers[HEADERS.messageId] ?? '');
    }
    return streamed;
  }

  const streamedCount = async (appended: Map<string, string[]>): Promise<number> =>
    [...(await streamedIds(appended)).values()].reduce((sum, ids) => sum + ids.length, 0);

  /** Each event once, and per task in version order. */
  async function expectExactlyOnceInOrder(appended: Map<string, string[]>): Promise<void> {
    await waitUntil(async () => (await unpublishedCount(appended)) === 0, 'every appended event is marked published');
    expect(await streamedIds(appended)).toEqual(appended);
  }

  it('publishes every appended event once, in version order, with the event id as message id', async () => {
    const { relay } = await startRelayProcess('single', { pollIntervalMs: 60_000 });
    await waitUntil(() => relay.isActive, 'the only relay is active');
    const appended = newTasks(3);

    // A one-minute poll: only wake() can get these out before the deadline.
    for (let round = 0; round < 3; round += 1) {
      await appendRound(appended, 4);
      relay.wake();
      await waitUntil(async () => (await unpublishedCount(appended)) === 0, `round ${round} is published after wake()`);
    }

    await expectExactlyOnceInOrder(appended);
    expect(relay.statistics).toEqual({ published: 36, duplicates: 0, failedPublishes: 0 });
    const [taskId, eventIds] = [...appended][0] ?? ['', []];
    const stored = (await readStream(connection, 'TASK_EVENTS')).find((message) => message.headers[HEADERS.messageId] === eventIds[0]);
    expect(stored?.subject).toBe(`task.message.${taskId}`);
    expect(stored?.headers).toMatchObject({
      [HEADERS.traceparent]: SAMPLE_TRACEPARENT,
      [HEADERS.eventType]: 'task.message',
      [HEADERS.schemaVersion]: '1',
      [HEADERS.correlationId]: `correlation-${taskId}`,
    });
    expect(JSON.parse(stored?.text ?? '{}')).toEqual({
      eventId: eventIds[0],
      type: 'task.message',
      schemaVersion: 1,
      aggregateId: taskId,
      occurredAt: expect.any(String) as string,
      correlationId: `correlation-${taskId}`,
      causationId: null,
      payload: { taskId, sequence: 1, text: `message 1 of ${taskId} with 'quotes' and ✓` },
    });
  });

  itOnPostgresServer('after a crash between publish and mark, a new relay re-publishes and the stream still holds each event once', async () => {
    const appended = newTasks(2);
    await appendRound(appended, 6);
    const crashPoint = 5;
    const crashed = deferred();
    const frozen = deferred();
    let acknowledged = 0;
    const first = await startRelayProcess('crashing', {
      // One aggregate at a time, so exactly 5 are acknowledged when the process stops dead.
      publishConcurrency: 1,
      afterPublish: async () => {
        acknowledged += 1;
        if (acknowledged < crashPoint) return;
        crashed.resolve();
        await frozen.promise;
      },
    });
    try {
      await crashed.promise;
      // The "dead" process's sessions end, which releases its advisory lock.
      expect(await terminateSessions(dataSource, first.applicationName)).toBeGreaterThan(0);
      expect(await streamedCount(appended)).toBe(crashPoint);
      expect(await unpublishedCount(appended)).toBe(12);

      const second = await startRelayProcess('successor');
      await expectExactlyOnceInOrder(appended);
      expect(second.relay.isActive).toBe(true);
      // What the first relay got acknowledged came back as duplicates, and JetStream stored it once.
      expect(second.relay.statistics).toEqual({ published: 12, duplicates: crashPoint, failedPublishes: 0 });
    } finally {
      // Lets the frozen relay be stopped in afterEach.
      frozen.reject(new Error('the crashed process never resumes'));
    }
  });

  itOnPostgresServer('keeps exactly-once and order with two relays running, and the standby takes over when the active one stops', async () => {
    const left = await startRelayProcess('left');
    const right = await startRelayProcess('right');
    const appended = newTasks(4);

    for (let round = 0; round < 5; round += 1) {
      await appendRound(appended, 3);
      left.relay.wake();
      right.relay.wake();
    }
    await expectExactlyOnceInOrder(appended);
    expect([left.relay.isActive, right.relay.isActive].filter(Boolean)).toHaveLength(1);
    const [active, standby] = left.relay.isActive ? [left, right] : [right, left];
    expect(standby.relay.statistics.published).toBe(0);

    await active.relay.stop();
    for (let round = 0; round < 3; round += 1) {
      await appendRound(appended, 2);
      standby.relay.wake();
    }

    await expectExactlyOnceInOrder(appended);
    expect(standby.relay.isActive).toBe(true);
    expect(active.relay.isActive).toBe(false);
    expect(standby.relay.statistics.published).toBe(4 * 3 * 2);
    expect(active.relay.statistics.published + standby.relay.statistics.published).toBe(4 * (5 * 3 + 3 * 2));
  });
  itOnPostgresServer('hands over when the active relay loses its lock connection, without losing or repeating events', async () => {
    const left = await startRelayProcess('left-killed');
    const right = await startRelayProcess('right-killed');
    const appended = newTasks(3);
    await appendRound(appended, 4);
    await expectExactlyOnceInOrder(appended);
    const active = left.relay.isActive ? left : right;

    // Postgres ends the active relay's sessions (e.g. a network cut), which frees the lock.
    expect(await terminateSessions(dataSource, active.applicationName)).toBeGreaterThan(0);
    for (let round = 0; round < 3; round += 1) {
      await appendRound(appended, 3);
      left.relay.wake();
      right.relay.wake();
    }

    await expectExactlyOnceInOrder(appended);
    expect([left.relay.isActive, right.relay.isActive].filter(Boolean)).toHaveLength(1);
  });
});
