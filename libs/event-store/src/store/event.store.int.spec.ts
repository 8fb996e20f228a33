import { HEADERS } from '@switchyard/contracts';
import { createDataSource, runMigrations } from '@switchyard/persistence';
import { createTestDatabase, itOnPostgresServer, uniqueNamespace, type TestDatabase } from '@switchyard/testing';
import type { DataSource, EntityManager } from 'typeorm';
import {
  ConcurrencyConflictError,
  DuplicateEventError,
  EVENT_STORE_ERROR_CODES,
  InvalidAppendError,
} from '../errors/event-store.errors';
import { SAMPLE_TRACEPARENT, deferred, taskMessageEvent, taskMessageEvents, waitUntil } from '../testing-support/event-store.spec-helper';
import { appendEvents, appendEventsOfAggregates, loadEvents, loadEventsOfAggregates, type AlongsideStatement } from './event.store';
import { withOptimisticRetry } from './optimistic.retry';

describe('event store on Postgres', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    await runMigrations({ url: database.url });
    dataSource = createDataSource({ url: database.url, poolSize: 8, applicationName: 'event-store-test' });
    await dataSource.initialize();
    // An inline view, as a service's own migration would create it.
    await dataSource.query('create table task_view (task_id text primary key, messages integer not null, version integer not null)');
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  const newTaskId = (): string => `task-${uniqueNamespace()}`;

  /** The projection every test uses: one row per task counting its messages. */
  const countMessages = async (manager: EntityManager, taskId: string, version: number, added: number): Promise<void> => {
    await manager.query(
      `insert into task_view (task_id, messages, version) values ($1, $2, $3)
       on conflict (task_id) do update set messages = task_view.messages + excluded.messages, version = excluded.version`,
      [taskId, added, version],
    );
  };

  const viewOf = async (taskId: string): Promise<unknown[]> =>
    dataSource.query<unknown[]>('select messages, version from task_view where task_id = $1', [taskId]);

  it('stores the full envelope with versions after expectedVersion and loads them in order', async () => {
    const taskId = newTaskId();
    const first = await appendEvents({ dataSource, aggregateId: taskId, expectedVersion: 0, events: taskMessageEvents(taskId, 1, 2) });
    const secondEvents = taskMessageEvents(taskId, 3, 1);
    const second = await appendEvents({ dataSource, aggregateId: taskId, expectedVersion: 2, events: secondEvents });

    expect(first.version).toBe(2);
    expect(second).toMatchObject({ aggregateId: taskId, version: 3, events: [{ version: 3, eventId: secondEvents[0]?.envelope.eventId }] });
    const loaded = await loadEvents({ dataSource, aggregateId: taskId });
    expect(loaded.map((event) => event.version)).toEqual([1, 2, 3]);
    expect(loaded[2]).toEqual({
      eventId: secondEvents[0]?.envelope.eventId,
      aggregateId: taskId,
      version: 3,
      type: 'task.message',
      subject: `task.message.${taskId}`,
      envelope: secondEvents[0]?.envelope,
      headers: {
        traceparent: SAMPLE_TRACEPARENT,
        [HEADERS.eventType]: 'task.message',
        [HEADERS.schemaVersion]: '1',
        [HEADERS.correlationId]: `correlation-${taskId}`,
      },
      occurredAt: new Date(secondEvents[0]?.envelope.occurredAt ?? ''),
      publishedAt: null,
    });
    await expect(loadEvents({ dataSource, aggregateId: taskId, afterVersion: 2 })).resolves.toHaveLength(1);
  });

  it('commits the events and the inline projection together', async () => {
    const taskId = newTaskId();
    await appendEvents({
      dataSource,
      aggregateId: taskId,
      expectedVersion: 0,
      events: taskMessageEvents(taskId, 1, 3),
      project: (manager, events) => countMessages(manager, taskId, events.at(-1)?.version ?? 0, events.length),
    });

    await expect(viewOf(taskId)).resolves.toEqual([{ messages: 3, version: 3 }]);
    await expect(loadEvents({ dataSource, aggregateId: taskId })).resolves.toHaveLength(3);
  });

  it('stores neither events nor views when the projection throws, and passes its error through', async () => {
    const taskId = newTaskId();
    const projectionError = new Error('view constraint violated');

    const appending = appendEvents({
      dataSource,
      aggregateId: taskId,
      expectedVersion: 0,
      events: taskMessageEvents(taskId, 1, 2),
      project: async (manager, events) => {
        await countMessages(manager, taskId, 2, events.length);
        throw projectionError;
      },
    });

    await expect(appending).rejects.toBe(projectionError);
    await expect(loadEvents({ dataSource, aggregateId: taskId })).resolves.toEqual([]);
    await expect(viewOf(taskId)).resolves.toEqual([]);
  });

  it('rejects a writer that decided on a stale version, reporting the actual one', async () => {
    const taskId = newTaskId();
    await appendEvents({ dataSource, aggregateId: taskId, expectedVersion: 0, events: taskMessageEvents(taskId, 1, 2) });

    const stale = appendEvents({ dataSource, aggregateId: taskId, expectedVersion: 1, events: [taskMessageEvent(taskId, 9)] });

    await expect(stale).rejects.toBeInstanceOf(ConcurrencyConflictError);
    await expect(stale).rejects.toMatchObject({
      code: EVENT_STORE_ERROR_CODES.concurrencyConflict,
      isRetryable: true,
      expectedVersion: 1,
      actualVersion: 2,
    });
  });

  it('lets exactly one of two concurrent writers at the same version win', async () => {
    const taskId = newTaskId();
    const results = await Promise.allSettled([
      appendEvents({ dataSource, aggregateId: taskId, expectedVersion: 0, events: taskMessageEvents(taskId, 1, 2) }),
      appendEvents({ dataSource, aggregateId: taskId, expectedVersion: 0, events: taskMessageEvents(taskId, 1, 3) }),
    ]);

    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]?.reason).toBeInstanceOf(ConcurrencyConflictError);
    const winner = results.find((result) => result.status === 'fulfilled');
    const stored = await loadEvents({ dataSource, aggregateId: taskId });
    expect(stored.map((event) => event.version)).toEqual(winner?.status === 'fulfilled' ? winner.value.events.map((event) => event.version) : []);
  });

  itOnPostgresServer('turns the unique (aggregate_id, version) violation into a conflict when both writers passed the version check', async () => {
    const taskId = newTaskId();
    const firstInserted = deferred();
    const releaseFirst = deferred();
    // The first writer holds its transaction open after inserting version 1 ...
    const first = appendEvents({
      dataSource,
      aggregateId: taskId,
      expectedVersion: 0,
      events: [taskMessageEvent(taskId, 1)],
      project: async () => {
        firstInserted.resolve();
        await releaseFirst.promise;
      },
    });
    await firstInserted.promise;
    // ... so the second one still reads version 0, inserts version 1 and waits on the unique index.
    const second = appendEvents({ dataSource, aggregateId: taskId, expectedVersion: 0, events: [taskMessageEvent(taskId, 1)] });
    await waitUntil(async () => {
      const waiting = await dataSource.query<Array<{ count: number }>>(
        "select count(*)::int as count from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      );
      return (waiting[0]?.count ?? 0) > 0;
    }, 'the second writer waits for the first one on the unique index');
    releaseFirst.resolve();
    const [firstOutcome, secondOutcome] = await Promise.allSettled([first, second]);

    expect(firstOutcome).toMatchObject({ status: 'fulfilled', value: { version: 1 } });
    expect(secondOutcome.status === 'rejected' ? secondOutcome.reason : undefined).toBeInstanceOf(ConcurrencyConflictError);
    expect(secondOutcome).toMatchObject({ reason: { actualVersion: undefined, cause: expect.objectContaining({ code: '23505' }) as unknown } });
  });

  it('converges concurrent writers with withOptimisticRetry, leaving versions contiguous', async () => {
    const taskId = newTaskId();
    const writer = (writerIndex: number) =>
      withOptimisticRetry(
        async () => {
          const history = await loadEvents({ dataSource, aggregateId: taskId });
          const version = history.at(-1)?.version ?? 0;
          return appendEvents({
            dataSource,
            aggregateId: taskId,
            expectedVersion: version,
            events: [taskMessageEvent(taskId, writerIndex)],
            project: (manager) => countMessages(manager, taskId, version + 1, 1),
          });
        },
        { attempts: 20 },
      );

    await Promise.all(Array.from({ length: 6 }, (_, index) => writer(index)));

    const stored = await loadEvents({ dataSource, aggregateId: taskId });
    expect(stored.map((event) => event.version)).toEqual([1, 2, 3, 4, 5, 6]);
    await expect(viewOf(taskId)).resolves.toEqual([{ messages: 6, version: 6 }]);
  });

  it('appends inside the caller transaction with a savepoint, so a conflict leaves that transaction usable', async () => {
    const taskId = newTaskId();
    await appendEvents({ dataSource, aggregateId: taskId, expectedVersion: 0, events: [taskMessageEvent(taskId, 1)] });

    await dataSource.transaction(async (manager) => {
      await expect(appendEvents({ manager, aggregateId: taskId, expectedVersion: 0, events: [taskMessageEvent(taskId, 2)] })).rejects.toBeInstanceOf(
        ConcurrencyConflictError,
      );
      await appendEvents({ manager, aggregateId: taskId, expectedVersion: 1, events: [taskMessageEvent(taskId, 2)] });
      await countMessages(manager, taskId, 2, 2);
    });

    await expect(loadEvents({ dataSource, aggregateId: taskId })).resolves.toHaveLength(2);
    await expect(viewOf(taskId)).resolves.toEqual([{ messages: 2, version: 2 }]);
  });

  it('converges concurrent whole-transaction writers that skip the savepoint (callerRerunsOnConflict), versions contiguous', async () => {
    const taskId = newTaskId();
    const writer = (writerIndex: number) =>
      withOptimisticRetry(
        () =>
          dataSource.transaction(async (manager) => {
            const history = await loadEvents({ manager, aggregateId: taskId });
            const version = history.at(-1)?.version ?? 0;
            return appendEvents({
              manager,
              aggregateId: taskId,
              expectedVersion: version,
              events: [taskMessageEvent(taskId, writerIndex)],
              project: (projecting) => countMessages(projecting, taskId, version + 1, 1),
              callerRerunsOnConflict: true,
            });
          }),
        { attempts: 20 },
      );

    await Promise.all(Array.from({ length: 6 }, (_, index) => writer(index)));

    const stored = await loadEvents({ dataSource, aggregateId: taskId });
    expect(stored.map((event) => event.version)).toEqual([1, 2, 3, 4, 5, 6]);
    await expect(viewOf(taskId)).resolves.toEqual([{ messages: 6, version: 6 }]);
  });

  it('without a savepoint, a stale append fails as a conflict and nothing of that transaction is kept', async () => {
    const taskId = newTaskId();
    await appendEvents({ dataSource, aggregateId: taskId, expectedVersion: 0, events: [taskMessageEvent(taskId, 1)] });

    const stale = dataSource.transaction(async (manager) => {
      await countMessages(manager, taskId, 0, 100);
      await appendEvents({ manager, aggregateId: taskId, expectedVersion: 0, events: [taskMessageEvent(taskId, 2)], callerRerunsOnConflict: true });
    });

    await expect(stale).rejects.toBeInstanceOf(ConcurrencyConflictError);
    await expect(loadEvents({ dataSource, aggregateId: taskId })).resolves.toHaveLength(1);
    await expect(viewOf(taskId)).resolves.toEqual([]);
  });

  it('loads the events of many aggregates in one read, each in version order', async () => {
    const [first, second, empty] = [newTaskId(), newTaskId(), newTaskId()];
    await appendEvents({ dataSource, aggregateId: first, expectedVersion: 0, events: taskMessageEvents(first, 1, 3) });
    await appendEvents({ dataSource, aggregateId: second, expectedVersion: 0, events: taskMessageEvents(second, 1, 2) });

    const loaded = await loadEventsOfAggregates({ dataSource, aggregateIds: [second, first, empty] });

    expect(loaded.get(first)?.map((event) => event.version)).toEqual([1, 2, 3]);
    expect(loaded.get(second)?.map((event) => event.version)).toEqual([1, 2]);
    expect(loaded.has(empty)).toBe(false);
    expect(await loadEventsOfAggregates({ dataSource, aggregateIds: [] })).toEqual(new Map());
  });

  it('appends to several aggregates with one insert, and a stale one fails it all as a conflict naming that aggregate', async () => {
    const [first, second] = [newTaskId(), newTaskId()];
    await appendEvents({ dataSource, aggregateId: second, expectedVersion: 0, events: [taskMessageEvent(second, 1)] });

    const appended = await dataSource.transaction((manager) =>
      appendEventsOfAggregates({
        manager,
        appends: [
          { aggregateId: first, expectedVersion: 0, events: taskMessageEvents(first, 1, 2) },
          { aggregateId: second, expectedVersion: 1, events: [taskMessageEvent(second, 2)] },
        ],
      }),
    );
    const stale = dataSource.transaction((manager) =>
      appendEventsOfAggregates({
        manager,
        appends: [
          { aggregateId: first, expectedVersion: 2, events: [taskMessageEvent(first, 3)] },
          { aggregateId: second, expectedVersion: 1, events: [taskMessageEvent(second, 3)] },
        ],
      }),
    );

    expect(appended.map(({ aggregateId, version, events }) => ({ aggregateId, version, versions: events.map((event) => event.version) }))).toEqual([
      { aggregateId: first, version: 2, versions: [1, 2] },
      { aggregateId: second, version: 2, versions: [2] },
    ]);
    await expect(stale).rejects.toMatchObject({ constructor: ConcurrencyConflictError, aggregateId: second, expectedVersion: 1 });
    await expect(loadEvents({ dataSource, aggregateId: first })).resolves.toHaveLength(2);
    await expect(appendEventsOfAggregates({ manager: dataSource.manager, appends: [] })).rejects.toBeInstanceOf(InvalidAppendError);
  });

  it('sends statements alongside an append in its one insert: all are kept together, or none', async () => {
    const [taskId, other] = [newTaskId(), newTaskId()];
    const viewRow = (id: string, messages: number, version: number): AlongsideStatement => (first) => ({
      sql: `insert into task_view (task_id, messages, version) values ($${first}, $${first + 1}, $${first + 2})`,
      parameters: [id, messages, version],
    });
    await dataSource.transaction((manager) =>
      appendEvents({ manager, aggregateId: taskId, expectedVersion: 0, events: taskMessageEvents(taskId, 1, 2), alongside: [viewRow(taskId, 2, 2), viewRow(other, 0, 0)], callerRerunsOnConflict: true }),
    );
    // The view row is there already: the violation is the statement's own, passed through as it is.
    const taken = dataSource.transaction((manager) =>
      appendEventsOfAggregates({ manager, appends: [{ aggregateId: other, expectedVersion: 0, events: [taskMessageEvent(other, 1)] }], alongside: [viewRow(taskId, 9, 9)] }),
    );
    // A stale append fails as a conflict, and its statement alongside is not kept either.
    const stale = dataSource.transaction((manager) =>
      appendEventsOfAggregates({ manager, appends: [{ aggregateId: taskId, expectedVersion: 1, events: [taskMessageEvent(taskId, 2)] }], alongside: [viewRow(newTaskId(), 1, 1)] }),
    );

    await expect(taken).rejects.toMatchObject({ driverError: { constraint: 'task_view_pkey' } });
    await expect(stale).rejects.toBeInstanceOf(ConcurrencyConflictError);
    await expect(viewOf(taskId)).resolves.toEqual([{ messages: 2, version: 2 }]);
    await expect(viewOf(other)).resolves.toEqual([{ messages: 0, version: 0 }]);
    await expect(loadEvents({ dataSource, aggregateId: other })).resolves.toEqual([]);
    await expect(dataSource.query('select count(*)::int as views from task_view where messages = 1')).resolves.toEqual([{ views: 0 }]);
    // Outside a caller's transaction it would not be atomic: refused.
    await expect(appendEvents({ dataSource, aggregateId: other, expectedVersion: 0, events: [taskMessageEvent(other, 1)], alongside: [viewRow(other, 1, 1)] })).rejects.toBeInstanceOf(InvalidAppendError);
  });

  it('reports a replayed event id as a duplicate, not as a conflict', async () => {
    const taskId = newTaskId();
    const event = taskMessageEvent(taskId, 1);
    await appendEvents({ dataSource, aggregateId: taskId, expectedVersion: 0, events: [event] });

    const replay = appendEvents({ dataSource, aggregateId: taskId, expectedVersion: 1, events: [event] });

    await expect(replay).rejects.toBeInstanceOf(DuplicateEventError);
    await expect(replay).rejects.toMatchObject({ code: EVENT_STORE_ERROR_CODES.duplicateEvent, isRetryable: false });
  });

  it('refuses malformed appends before touching the database', async () => {
    const taskId = newTaskId();
    const foreign = taskMessageEvent(newTaskId(), 1);
    const repeated = taskMessageEvent(taskId, 1);

    await expect(appendEvents({ dataSource, aggregateId: taskId, expectedVersion: 0, events: [foreign] })).rejects.toBeInstanceOf(InvalidAppendError);
    await expect(appendEvents({ dataSource, aggregateId: taskId, expectedVersion: -1, events: [repeated] })).rejects.toMatchObject({
      code: EVENT_STORE_ERROR_CODES.invalidAppend,
    });
    await expect(appendEvents({ dataSource, aggregateId: taskId, expectedVersion: 0, events: [repeated, repeated] })).rejects.toBeInstanceOf(
      InvalidAppendError,
    );
    await expect(appendEvents({ dataSource, aggregateId: taskId, expectedVersion: 0, events: [] })).resolves.toEqual({
      aggregateId: taskId,
      version: 0,
      events: [],
    });
    await expect(loadEvents({ dataSource, aggregateId: taskId })).resolves.toEqual([]);
  });
});
