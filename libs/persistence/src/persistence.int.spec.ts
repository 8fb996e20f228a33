import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { createTestDatabase } from '@switchyard/testing';
import { createDataSource } from './data-source/data-source.factory';
import { checkDatabaseReady, DatabaseNotReadyError } from './data-source/database-readiness.check';
import { startEmbeddedDatabase } from './embedded/embedded-database';
import { ConsumerCheckpointEntity } from './schema/record/consumer-checkpoint.entity';
import { OutboxEventEntity } from './schema/record/outbox-event.entity';
import { ProcessedCommandEntity } from './schema/record/processed-command.entity';
import { allMigrations } from './migrations/migration.list';
import { runMigrations } from './migrations/migration.runner';
import { PersistenceModule } from './nest/persistence.module';
import { DATA_SOURCE } from './nest/persistence.injection-keys';

interface Database {
  readonly url: string;
  drop(): Promise<void>;
}

/** Both targets run every time: the server from the jest bootstrap and a private embedded one. */
const targets: ReadonlyArray<{ name: string; create: () => Promise<Database> }> = [
  { name: 'postgres server', create: createTestDatabase },
  {
    name: 'embedded database',
    create: async () => {
      const embedded = await startEmbeddedDatabase({});
      return { url: embedded.url, drop: () => embedded.stop() };
    },
  },
];

/** Widens the window in which racing runners overlap; applied by the race test only. */
class SlowRaceMarker1795988700000 implements MigrationInterface {
  readonly name = 'SlowRaceMarker1795988700000';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('select pg_sleep(0.2)');
    await queryRunner.query('create table race_marker (id int primary key)');
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('drop table race_marker');
  }
}

async function tableNames(dataSource: DataSource): Promise<string[]> {
  const rows = await dataSource.query<Array<{ table_name: string }>>(
    "select table_name from information_schema.tables where table_schema = 'public' order by table_name",
  );
  return rows.map((row) => row.table_name);
}

describe.each(targets)('persistence on the $name', ({ create }) => {
  let database: Database;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await create();
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database.drop();
  });

  it('applies the migrations once, then finds nothing pending', async () => {
    const first = await runMigrations({ url: database.url });
    expect(first.applied).toEqual(allMigrations.map((migration) => new migration().name));
    const second = await runMigrations({ url: database.url });
    expect(second.applied).toEqual([]);

    dataSource = createDataSource({ url: database.url });
    await dataSource.initialize();
    await checkDatabaseReady(dataSource);
    expect(await tableNames(dataSource)).toEqual(
      expect.arrayContaining(['consumer_checkpoint', 'outbox_event', 'processed_command', 'schema_migration']),
    );
  });

  it('applies each migration exactly once when runners race', async () => {
    const raceDatabase = await create();
    try {
      const migrations = [...allMigrations, SlowRaceMarker1795988700000];
      const results = await Promise.all(
        Array.from({ length: 4 }, () => runMigrations({ url: raceDatabase.url, migrations })),
      );
      const applied = results.flatMap((result) => result.applied).sort();
      expect(applied).toEqual(migrations.map((migration) => new migration().name).sort());
      const check = createDataSource({ url: raceDatabase.url, poolSize: 1 });
      await check.initialize();
      try {
        const rows = await check.query<Array<{ count: number }>>('select count(*)::int as count from schema_migration');
        expect(rows).toEqual([{ count: migrations.length }]);
      } finally {
        await check.destroy();
      }
    } finally {
      await raceDatabase.drop();
    }
  });

  it('round-trips the foundation entities through the NestJS module', async () => {
    @Module({ imports: [PersistenceModule.forRoot({ url: database.url, applicationName: 'persistence-test' })] })
    class TestApplicationModule {}
    const application = await NestFactory.createApplicationContext(TestApplicationModule, { logger: false });
    const injected = application.get<DataSource>(DATA_SOURCE);
    expect(injected.isInitialized).toBe(true);

    const occurredAt = new Date('2026-01-02T03:04:05.678Z');
    await injected.getRepository(ConsumerCheckpointEntity).save({ consumerName: 'transcript-projector', streamSequence: 9_007_199_254_740_991 });
    await injected.getRepository(ProcessedCommandEntity).save({ requestId: 'request-1', commandType: 'task.enqueue', reply: { ok: true, taskId: 't-1' } });
    const outboxRow = {
      id: '01890a5d-ac96-774b-bcce-b302099a8057',
      aggregateId: 'task-1',
      version: 1,
      type: 'task.enqueued',
      subject: 'task.enqueued.task-1',
      payload: { title: 'quote \' and unicode ✓' },
      headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
      occurredAt,
      publishedAt: null,
    };
    await injected.getRepository(OutboxEventEntity).save(outboxRow);

    await expect(injected.getRepository(ConsumerCheckpointEntity).findOneByOrFail({ consumerName: 'transcript-projector' })).resolves.toMatchObject({
      streamSequence: 9_007_199_254_740_991,
      updatedAt: expect.any(Date) as Date,
    });
    await expect(injected.getRepository(ProcessedCommandEntity).findOneByOrFail({ requestId: 'request-1' })).resolves.toMatchObject({
      commandType: 'task.enqueue',
      reply: { ok: true, taskId: 't-1' },
    });
    await expect(injected.getRepository(OutboxEventEntity).findOneByOrFail({ aggregateId: 'task-1', version: 1 })).resolves.toEqual(outboxRow);

    await application.close();
    expect(injected.isInitialized).toBe(false);
  });

  it('keeps the first reply when the same request id is inserted again (on conflict do nothing)', async () => {
    const insert = (reply: Record<string, number>) =>
      dataSource
        .createQueryBuilder()
        .insert()
        .into(ProcessedCommandEntity)
        .values({ requestId: 'request-twice', commandType: 'task.cancel', reply })
        .orIgnore()
        .execute();
    await insert({ attempt: 1 });
    const again = await dataSource.query<Array<{ request_id: string }>>(
      `insert into processed_command (request_id, command_type, reply) values ($1, $2, $3)
       on conflict do nothing returning request_id`,
      ['request-twice', 'task.cancel', JSON.stringify({ attempt: 2 })],
    );
    await insert({ attempt: 3 });
    expect(again).toEqual([]);
    await expect(dataSource.getRepository(ProcessedCommandEntity).findBy({ requestId: 'request-twice' })).resolves.toMatchObject([
      { reply: { attempt: 1 } },
    ]);
  });

  it('rolls back the checkpoint with the rows when a transaction fails', async () => {
    const event = (id: string) => ({
      id,
      aggregateId: 'task-rollback',
      version: 1,
      type: 'task.enqueued',
      subject: 'task.enqueued.task-rollback',
      payload: {},
      occurredAt: new Date(),
    });
    await dataSource.getRepository(OutboxEventEntity).insert(event('01890a5d-ac96-774b-bcce-b302099a8001'));
    const failing = dataSource.transaction(async (manager) => {
      await manager.getRepository(ConsumerCheckpointEntity).insert({ consumerName: 'rollback-projector', streamSequence: 42 });
      // Same (aggregate_id, version): the unique constraint rejects a writer deciding on stale state.
      await manager.getRepository(OutboxEventEntity).insert(event('01890a5d-ac96-774b-bcce-b302099a8002'));
    });
    await expect(failing).rejects.toThrow(/outbox_event_aggregate_version_unique/);
    await expect(dataSource.getRepository(ConsumerCheckpointEntity).countBy({ consumerName: 'rollback-projector' })).resolves.toBe(0);
    await expect(dataSource.getRepository(OutboxEventEntity).countBy({ aggregateId: 'task-rollback' })).resolves.toBe(1);
  });

  it('reports a data source that cannot answer as not ready', async () => {
    const closed = createDataSource({ url: database.url, poolSize: 1 });
    await expect(checkDatabaseReady(closed)).rejects.toBeInstanceOf(DatabaseNotReadyError);
  });
});

describe('checkDatabaseReady on a blocked embedded database', () => {
  it('gives up after its timeout instead of waiting forever', async () => {
    const embedded = await startEmbeddedDatabase({ idleInTransactionTimeoutMilliseconds: 0 });
    const holder = createDataSource({ url: embedded.url, poolSize: 1 });
    const probe = createDataSource({ url: embedded.url, poolSize: 1 });
    await Promise.all([holder.initialize(), probe.initialize()]);
    const queryRunner = holder.createQueryRunner();
    try {
      // One open transaction owns PGlite's single session, so the probe's select 1 cannot run.
      await queryRunner.startTransaction();
      await expect(checkDatabaseReady(probe, { timeoutMilliseconds: 200 })).rejects.toThrow(/did not answer select 1 within 200 ms/);
      await queryRunner.rollbackTransaction();
    } finally {
      await queryRunner.release();
      await Promise.all([holder.destroy(), probe.destroy()]);
      await embedded.stop();
    }
  });
});
