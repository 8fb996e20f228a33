import { closeSync, openSync, readSync, writeFileSync } from 'node:fs';
import { parseSpawnRecords, type SpawnRecord } from './spawn-log';

type SpawnEvent = SpawnRecord['event'];
type RecordOf<TEvent extends SpawnEvent> = Extract<SpawnRecord, { event: TEvent }>;

export interface SpawnLogWatcher {
  readonly file: string;
  /** The record of `taskId` once the agent wrote it (at once if it already did). */
  waitFor<TEvent extends SpawnEvent>(options: { readonly event: TEvent; readonly taskId: string; readonly timeoutMs: number }): Promise<RecordOf<TEvent>>;
  close(): void;
}

const POLL_INTERVAL_MS = 2;

/**
 * Tails a fresh spawn log at `file`. Only the reading is polled; the times measured are the ones
 * the agents wrote, so the poll interval never enters a figure.
 */
export function watchSpawnLog(file: string): SpawnLogWatcher {
  writeFileSync(file, '');
  const descriptor = openSync(file, 'r');
  const seen = new Map<string, SpawnRecord>();
  const waiters = new Map<string, (record: SpawnRecord) => void>();
  const buffer = Buffer.alloc(64 * 1024);
  let offset = 0;
  let rest = '';
  let timer: NodeJS.Timeout | undefined;

  const keyOf = (event: SpawnEvent, taskId: string): string => `${event}:${taskId}`;
  const readNew = (): void => {
    for (;;) {
      const bytes = readSync(descriptor, buffer, 0, buffer.length, offset);
      if (bytes === 0) break;
      offset += bytes;
      // Lines are ASCII JSON, so a chunk boundary never splits a character.
      const parsed = parseSpawnRecords(rest + buffer.toString('utf8', 0, bytes));
      rest = parsed.rest;
      for (const record of parsed.records) {
        const key = keyOf(record.event, record.taskId);
        seen.set(key, record);
        waiters.get(key)?.(record);
        waiters.delete(key);
      }
    }
  };
  const poll = (): void => {
    readNew();
    timer = waiters.size > 0 ? setTimeout(poll, POLL_INTERVAL_MS) : undefined;
  };

  return {
    file,
    waitFor<TEvent extends SpawnEvent>(options: { readonly event: TEvent; readonly taskId: string; readonly timeoutMs: number }): Promise<RecordOf<TEvent>> {
      readNew();
      const key = keyOf(options.event, options.taskId);
      const known = seen.get(key);
      if (known) return Promise.resolve(known as RecordOf<TEvent>);
      return new Promise((resolve, reject) => {
        const deadline = setTimeout(() => {
          waiters.delete(key);
          reject(new Error(`no '${options.event}' record for ${options.taskId} within ${options.timeoutMs} ms`));
        }, options.timeoutMs);
        waiters.set(key, (record) => {
          clearTimeout(deadline);
          resolve(record as RecordOf<TEvent>);
        });
        timer ??= setTimeout(poll, POLL_INTERVAL_MS);
      });
    },
    close(): void {
      if (timer) clearTimeout(timer);
      closeSync(descriptor);
    },
  };
}
