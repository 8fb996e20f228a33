import { uuidv7 } from '@switchyard/contracts';
import type { DataSource } from 'typeorm';
import type { NewEvent } from '../store/stored-event.types';

/** A W3C traceparent a test can recognise on the published message. */
export const SAMPLE_TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

/** A `task.message` event for `taskId`, published on `task.message.<taskId>` (TASK_EVENTS). */
export function taskMessageEvent(taskId: string, sequence: number): NewEvent {
  const eventId = uuidv7();
  return {
    envelope: {
      eventId,
      type: 'task.message',
      schemaVersion: 1,
      aggregateId: taskId,
      occurredAt: new Date().toISOString(),
      correlationId: `correlation-${taskId}`,
      causationId: null,
      payload: { taskId, sequence, text: `message ${sequence} of ${taskId} with 'quotes' and ✓` },
    },
    subject: `task.message.${taskId}`,
    headers: { traceparent: SAMPLE_TRACEPARENT },
  };
}

export function taskMessageEvents(taskId: string, firstSequence: number, count: number): NewEvent[] {
  return Array.from({ length: count }, (_, index) => taskMessageEvent(taskId, firstSequence + index));
}

/** Polls until `probe` returns true; fails at the deadline with `description`. */
export async function waitUntil(probe: () => boolean | Promise<boolean>, description: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
}

/** Ends every session a data source opened with `applicationName`, as if its process had died. */
export async function terminateSessions(admin: DataSource, applicationName: string): Promise<number> {
  const rows = await admin.query<Array<{ terminated: boolean }>>(
    `select pg_terminate_backend(pid) as terminated from pg_stat_activity
     where application_name = $1 and datname = current_database() and pid <> pg_backend_pid()`,
    [applicationName],
  );
  return rows.filter((row) => row.terminated).length;
}
