import { Client } from 'pg';

/**
 * Waits until session-resume's index (projected asynchronously) holds `sessionId` as the session
 * of a task that ran and ended, not retired: what a follow-up's resolve then offers. Tests read the table
 * because only the daemon holding a task's attempt may ask `session.resolve` about it.
 */
export async function waitForIndexedSession(options: { readonly databaseUrl: string; readonly sessionId: string; readonly timeoutMs?: number }): Promise<void> {
  const client = new Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + (options.timeoutMs ?? 20_000);
    while (Date.now() < deadline) {
      const { rows } = await client.query<{ found: boolean }>(
        `select exists (
           select 1 from session_resume_task t
            where t.has_run and t.entry->'session'->>'sessionId' = $1 and t.entry->'outcome' <> 'null'::jsonb
              and not exists (select 1 from session_resume_retired r where r.session_id = $1)
         ) as found`,
        [options.sessionId],
      );
      if (rows[0]?.found) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`session ${options.sessionId} never reached the resume index`);
  } finally {
    await client.end();
  }
}
