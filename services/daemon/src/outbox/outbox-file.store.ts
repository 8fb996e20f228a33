import { mkdir, open, readdir, readFile, rm, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** One message waiting for its JetStream ack. */
export interface OutboxEntry {
  readonly taskId: string;
  readonly seq: number;
  readonly subject: string;
  readonly messageId: string;
  readonly body: unknown;
}

const ENTRIES_SUFFIX = '.jsonl';
const ACKED_SUFFIX = '.acked';
const CLOSED_SUFFIX = '.closed';

/**
 * The daemon's on-disk outbox, one append-only JSONL file per task plus its acknowledged
 * high-water mark. A line is written before the message is published, so a daemon that dies (or a
 * NATS outage) loses nothing: on restart every line above the mark is published again, and the
 * deterministic message id lets JetStream drop what had in fact arrived.
 */
export class OutboxFileStore {
  private readonly handles = new Map<string, Promise<FileHandle>>();

  constructor(private readonly directory: string) {}

  async append(entry: OutboxEntry): Promise<void> {
    const handle = await this.handleFor(entry.taskId);
    // write() reaches the page cache before we return: a killed daemon keeps the line.
    await handle.write(`${JSON.stringify(entry)}\n`);
  }

  /** Forces appended lines to disk (group commit: called per batch, not per line). */
  async sync(): Promise<void> {
    await Promise.all([...this.handles.values()].map(async (handle) => (await handle).datasync()));
  }

  async markAcknowledged(taskId: string, seq: number): Promise<void> {
    await writeFile(this.file(taskId, ACKED_SUFFIX), String(seq));
  }

  /** No more messages will come for the task; its files go once everything is acknowledged. */
  async markClosed(taskId: string): Promise<void> {
    await writeFile(this.file(taskId, CLOSED_SUFFIX), '');
  }

  async remove(taskId: string): Promise<void> {
    const handle = this.handles.get(taskId);
    this.handles.delete(taskId);
    if (handle) await (await handle).close();
    await Promise.all([ENTRIES_SUFFIX, ACKED_SUFFIX, CLOSED_SUFFIX].map((suffix) => rm(this.file(taskId, suffix), { force: true })));
  }

  /** What a previous run left unacknowledged, per task in seq order; a torn last line is dropped. */
  async recover(): Promise<{ pending: OutboxEntry[]; closedTasks: string[] }> {
    await mkdir(this.directory, { recursive: true });
    const names = await readdir(this.directory);
    const pending: OutboxEntry[] = [];
    const closedTasks: string[] = [];
    for (const name of names.filter((candidate) => candidate.endsWith(ENTRIES_SUFFIX))) {
      const taskId = name.slice(0, -ENTRIES_SUFFIX.length);
      const acked = Number(await readFile(this.file(taskId, ACKED_SUFFIX), 'utf8').catch(() => '-1'));
      const lines = (await readFile(path.join(this.directory, name), 'utf8')).split('\n');
      for (const line of lines) {
        const entry = parseLine(line);
        if (entry && entry.seq > acked) pending.push(entry);
      }
      if (names.includes(`${taskId}${CLOSED_SUFFIX}`)) closedTasks.push(taskId);
    }
    pending.sort((left, right) => (left.taskId === right.taskId ? left.seq - right.seq : left.taskId.localeCompare(right.taskId)));
    return { pending, closedTasks };
  }

  async close(): Promise<void> {
    await this.sync();
    await Promise.all([...this.handles.values()].map(async (handle) => (await handle).close()));
    this.handles.clear();
  }

  private handleFor(taskId: string): Promise<FileHandle> {
    let handle = this.handles.get(taskId);
    if (!handle) {
      handle = mkdir(this.directory, { recursive: true }).then(() => open(this.file(taskId, ENTRIES_SUFFIX), 'a'));
      this.handles.set(taskId, handle);
    }
    return handle;
  }

  private file(taskId: string, suffix: string): string {
    // Task ids are subject tokens (no separators), so they are safe file names.
    return path.join(this.directory, `${taskId}${suffix}`);
  }
}

function parseLine(line: string): OutboxEntry | undefined {
  if (line.trim() === '') return undefined;
  try {
    const entry = JSON.parse(line) as OutboxEntry;
    return typeof entry.taskId === 'string' && Number.isInteger(entry.seq) ? entry : undefined;
  } catch {
    // A line cut short by a crash mid-write was never published; nothing after it exists.
    return undefined;
  }
}
