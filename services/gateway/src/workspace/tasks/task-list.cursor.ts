import { ApiError } from '../common/api-error';

/** Where a page of the task list ended: newest first, so the next page is strictly older. */
export interface TaskListPosition {
  /** `enqueued_at` at full (microsecond) precision, as Postgres prints it in UTC. */
  readonly enqueuedAt: string;
  readonly taskId: string;
}

export function encodeTaskCursor(position: TaskListPosition): string {
  return Buffer.from(JSON.stringify([position.enqueuedAt, position.taskId]), 'utf8').toString('base64url');
}

/** Opaque to clients; anything that is not a cursor we issued is a 400. */
export function decodeTaskCursor(cursor: string): TaskListPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string' && !Number.isNaN(Date.parse(value[0]))) {
      return { enqueuedAt: value[0], taskId: value[1] };
    }
  } catch {
    // Reported below, like any other malformed cursor.
  }
  throw new ApiError('validation_failed', 'invalid query: cursor: not a cursor returned by this API', {
    issues: [{ path: 'cursor', message: 'not a cursor returned by this API' }],
  });
}
