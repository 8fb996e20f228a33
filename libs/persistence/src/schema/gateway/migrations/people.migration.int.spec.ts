import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@switchyard/testing';
import { createDataSource } from '../../../data-source/data-source.factory';
import { runMigrations } from '../../../migrations/migration.runner';
import { withQueryRunner } from '../../../migrations/query-runner.spec-helper';
import { FIRST_OWNER_EMAIL, FIRST_OWNER_USER_ID, People1795991700000 } from './1795991700000-people.migration';

describe('gateway migration: people, and the tokens from before them (real Postgres)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const migration = new People1795991700000();

  beforeAll(async () => {
    database = await createTestDatabase();
    await runMigrations({ url: database.url });
    dataSource = createDataSource({ url: database.url });
    await dataSource.initialize();
    // Back to before people: later migrations, if any, do not touch these tables.
    await withQueryRunner(dataSource, (runner) => migration.down(runner));
  });
  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await database?.drop();
  });

  it('makes every existing token a token of one created owner account, owner of each workspace that had tokens', async () => {
    // Given two workspaces with tokens made before people existed, and one without any
    await dataSource.query(`insert into workspace (id, name) values ('alpha', 'Alpha'), ('beta', 'Beta'), ('empty', 'Empty')`);
    await dataSource.query(`insert into api_token (id, workspace_id, name, token_hash) values ('t1', 'alpha', 'ci', 'h1'), ('t2', 'alpha', 'laptop', 'h2'), ('t3', 'beta', 'ci', 'h3')`);

    // When the migration runs
    await withQueryRunner(dataSource, (runner) => migration.up(runner));

    // Then the tokens belong to the first owner, unscoped and not expiring, who owns both workspaces
    expect(await dataSource.query('select id, user_id, scopes, expires_at from api_token order by id')).toEqual([
      { id: 't1', user_id: FIRST_OWNER_USER_ID, scopes: null, expires_at: null },
      { id: 't2', user_id: FIRST_OWNER_USER_ID, scopes: null, expires_at: null },
      { id: 't3', user_id: FIRST_OWNER_USER_ID, scopes: null, expires_at: null },
    ]);
    expect(await dataSource.query('select email, password_hash from app_user')).toEqual([{ email: FIRST_OWNER_EMAIL, password_hash: null }]);
    expect(await dataSource.query('select workspace_id, user_id, role from workspace_member order by workspace_id')).toEqual([
      { workspace_id: 'alpha', user_id: FIRST_OWNER_USER_ID, role: 'owner' },
      { workspace_id: 'beta', user_id: FIRST_OWNER_USER_ID, role: 'owner' },
    ]);
  });

  it('refuses a token without its person from then on, and a role outside the four', async () => {
    await expect(dataSource.query(`insert into api_token (id, workspace_id, name, token_hash) values ('t4', 'alpha', 'x', 'h4')`)).rejects.toThrow(/user_id/);
    await expect(dataSource.query(`insert into workspace_member (workspace_id, user_id, role) values ('empty', $1, 'superuser')`, [FIRST_OWNER_USER_ID])).rejects.toThrow(/workspace_member_role_check/);
  });
});
