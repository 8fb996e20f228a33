import type { SwitchyardEvent, TaskState } from '@switchyard/contracts';
import type { TaskStatusChange } from './live.frames';

/** What each lifecycle event does to the task's status; events absent here are not status changes. */
const STATUS_AFTER: Partial<Record<SwitchyardEvent['type'], TaskState | null>> = {
  'task.enqueued': 'queued',
  'task.deferred': 'deferred',
  'task.claimed': 'dispatched',
  'task.local_directory_awaited': 'waiting_local_directory',
  'task.started': 'running',
  'task.requeued': 'queued',
  'task.completed': 'completed',
  'task.failed': 'failed',
  'task.expired': 'failed',
  'task.cancelled': 'cancelled',
  'task.cancel_requested': null,
  'task.timed_out': null,
};

/** The client-facing status change of a lifecycle event, or undefined (messages, heartbeats, other aggregates). */
export function taskStatusChangeOf(event: SwitchyardEvent): TaskStatusChange | undefined {
  if (!(event.type in STATUS_AFTER)) return undefined;
  const payload = event.payload as { taskId: string; attempt?: number | null; reason?: string | null; cause?: string };
  return {
    taskId: payload.taskId,
    event: event.type,
    status: STATUS_AFTER[event.type] ?? null,
    attempt: typeof payload.attempt === 'number' ? payload.attempt : null,
    reason: payload.reason ?? payload.cause ?? null,
    occurredAt: event.occurredAt,
  };
}
