import { Client } from 'pg';
import { isResumableSessionIndexed } from '@switchyard/persistence';

/**
 * Waits until session-resume's index (projected asynchronously) offers `sessionId` to a follow-up
 * (`isResumableSessionIndexed`). Tests read the index because only the daemon holding a task's
 * attempt may ask `session.resolve` about it.
 */
export async function waitForIndexedSession(options: { readonly databaseUrl: string; readonly sessionId: string; readonly timeoutMs?: number }): Promise<void> {
  const client = new Client({ connectionString: options.databaseUrl });
  await client.connect();
  const runner = { query: async <Row>(sql: string, parameters?: unknown[]): Promise<Row> => (await client.query(sql, parameters)).rows as Row };
  try {
    const deadline = Date.now() + (options.timeoutMs ?? 20_000);
    while (Date.now() < deadline) {
      if (await isResumableSessionIndexed(runner, options.sessionId)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`session ${options.sessionId} never reached the resume index`);
  } finally {
    await client.end();
  }
}
