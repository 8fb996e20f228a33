import type { SqlRunner } from '../sql-runner';

/**
 * Whether the resume index holds `sessionId` as the session of a task that ran and ended, and not
 * retired: what a follow-up of that conversation's resolve then offers. For callers that may not
 * ask `session.resolve` (only the daemon holding a task's attempt may), e.g. tests waiting for the
 * asynchronous projection.
 */
export async function isResumableSessionIndexed(runner: SqlRunner, sessionId: string): Promise<boolean> {
  const rows = await runner.query<Array<{ found: boolean }>>(
    `select exists (
       select 1 from session_resume_task t
        where t.has_run and t.entry->'session'->>'sessionId' = $1 and t.entry->'outcome' <> 'null'::jsonb
          and not exists (select 1 from session_resume_retired r where r.session_id = $1)
     ) as found`,
    [sessionId],
  );
  return rows[0]?.found === true;
}
