import { Client } from 'pg';
import { createTestDatabase } from './test-database';

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('createTestDatabase', () => {
  it('gives each caller its own database: tables made in one are absent from the other', async () => {
    const [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    try {
      expect(first.url).not.toBe(second.url);
      await query(first.url, 'create table only_here (id int)');
      const tables = await query<{ name: string }>(second.url, "select table_name as name from information_schema.tables where table_name = 'only_here'");
      expect(tables).toEqual([]);
    } finally {
      await Promise.all([first.drop(), second.drop()]);
    }
  });

  it('drops the database so nothing can connect to it afterwards', async () => {
    const database = await createTestDatabase();
    await query(database.url, 'select 1');
    await database.drop();
    await expect(query(database.url, 'select 1')).rejects.toThrow();
  });
});
