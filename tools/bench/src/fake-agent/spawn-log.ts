/**
 * The fake agent's spawn log: one JSON line per fact, appended (O_APPEND, one write per line) to
 * the file named by `FAKE_AGENT_SPAWN_LOG`, so a bench sees when and as which pid an agent started.
 * Times are wall-clock milliseconds from `performance.timeOrigin`, comparable across processes of
 * one machine.
 */
export type SpawnRecord =
  | {
      readonly event: 'spawned';
      readonly taskId: string;
      readonly pid: number;
      /** `performance.timeOrigin`: when this node process began. */
      readonly startedAt: number;
      /** When the agent's own code first ran. */
      readonly readyAt: number;
    }
  | {
      readonly event: 'tree';
      readonly taskId: string;
      readonly pid: number;
      /** A child the agent started in its own process group, so a cancel has a tree to kill. */
      readonly childPid: number;
    };

export const SPAWN_LOG_VARIABLE = 'FAKE_AGENT_SPAWN_LOG';
/** `1`: the fake agent starts a long-lived child process before it reads its prompt. */
export const SPAWN_CHILD_VARIABLE = 'FAKE_AGENT_CHILD';
/** A file path: the fake agent emits nothing until the file exists, so many agents can start emitting together. */
export const START_GATE_VARIABLE = 'FAKE_AGENT_START_GATE';

export function formatSpawnRecord(record: SpawnRecord): string {
  return `${JSON.stringify(record)}\n`;
}

/**
 * The complete records in `text` (a chunk read from the log) and the unfinished tail to prepend to
 * the next chunk. A line that is not a record is an error: the log is ours alone.
 */
export function parseSpawnRecords(text: string): { readonly records: SpawnRecord[]; readonly rest: string } {
  const lines = text.split('\n');
  const rest = lines.pop() ?? '';
  const records = lines
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const record = JSON.parse(line) as Partial<SpawnRecord>;
      if ((record.event !== 'spawned' && record.event !== 'tree') || typeof record.taskId !== 'string' || typeof record.pid !== 'number') {
        throw new Error(`not a spawn record: ${line}`);
      }
      return record as SpawnRecord;
    });
  return { records, rest };
}
