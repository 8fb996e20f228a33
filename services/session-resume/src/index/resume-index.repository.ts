import type { EventOf } from '@switchyard/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import type { PriorTask } from '../domain/resume.decider';
import { hasRun, type ResumeIndexEntry } from '../domain/resume-index.entry';
import { emptyEntry, evolve, indexedTaskId, type ResumeIndexEvent } from '../domain/resume-index.evolve';

/** Folds one event into its task's row; the row is locked so concurrent writers take turns. */
export async function applyIndexEvent(manager: EntityManager, event: ResumeIndexEvent): Promise<void> {
  const taskId = indexedTaskId(event);
  await manager.query('insert into session_resume_task (task_id, entry) values ($1, $2) on conflict (task_id) do nothing', [taskId, emptyEntry(taskId)]);
  const [row] = await manager.query<Array<{ entry: ResumeIndexEntry }>>('select entry from session_resume_task where task_id = $1 for update', [taskId]);
  const current = row?.entry ?? emptyEntry(taskId);
  const next = evolve(current, event);
  if (next === current) return;
  await manager.query(
    `update session_resume_task set entry = $2, resume_key = $3, enqueued_at = $4, has_run = $5, updated_at = now() where task_id = $1`,
    [taskId, next, next.enqueued?.key ?? null, next.enqueued?.at ?? null, hasRun(next)],
  );
}

/** A retired session stays retired: the first retirement is kept, repeats change nothing. */
export async function recordRetirement(manager: EntityManager, event: EventOf<'session.retired'>): Promise<void> {
  await manager.query(
    `insert into session_resume_retired (session_id, task_id, reason, retired_at) values ($1, $2, $3, $4)
     on conflict (session_id) do nothing`,
    [event.payload.sessionId, event.payload.taskId, event.payload.reason, event.occurredAt],
  );
}

/** The conversation's latest task that ran (by enqueue time), other than the asking task, and whether its session is retired. */
export async function findPriorTask(dataSource: DataSource, options: { resumeKey: string; excludeTaskId: string }): Promise<PriorTask | null> {
  const [row] = await dataSource.query<Array<{ entry: ResumeIndexEntry; retired: boolean }>>(
    `select t.entry,
            exists (select 1 from session_resume_retired r where r.session_id = t.entry->'session'->>'sessionId') as retired
       from session_resume_task t
      where t.resume_key = $1 and t.has_run and t.task_id <> $2
      order by t.enqueued_at desc, t.task_id desc
      limit 1`,
    [options.resumeKey, options.excludeTaskId],
  );
  return row ? { entry: row.entry, sessionRetired: row.retired } : null;
}
