import { open, readdir, readFile, rm, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_FILE_MODE, preparePrivateDirectory } from '@switchyard/service-kit';

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
/** Written by earlier versions, which marked closed tasks on disk; removed with the task. */
const CLOSED_SUFFIX = '.closed';

/**
 * The daemon's on-disk outbox, one append-only JSONL file per task plus its acknowledged
 * high-water mark. A line is written before the message is published, so a daemon that dies (or a
 * NATS outage) loses nothing: on restart every line above the mark is published again, and the
 * deterministic message id lets JetStream drop what had in fact arrived. The lines are task
 * messages (agent output, tool input), so the folder is 0700 and its files 0600.
 */
export class OutboxFileStore {
  private readonly handles = new Map<string, Promise<FileHandle>>();
  private readonly batches = new Map<string, AppendBatches>();
  private prepared: Promise<void> | undefined;

  constructor(private readonly directory: string) {}

  /**
   * Resolves once the line is in the page cache (a killed daemon keeps it). Lines appended while a
   * write of the task is under way go out together in the next one, in call order: a busy task costs
   * one write per batch, not one per message, and callers need not wait for each other.
   */
  append(entry: OutboxEntry, bodyJson: string = JSON.stringify(entry.body)): Promise<void> {
    let batches = this.batches.get(entry.taskId);
    if (!batches) {
      batches = { writing: undefined, next: undefined };
      this.batches.set(entry.taskId, batches);
    }
    const next = (batches.next ??= { lines: [], written: deferred() });
    // The body arrives serialized (the caller publishes those bytes too); the line is `entry` as JSON.
    next.lines.push(`{"taskId":${JSON.stringify(entry.taskId)},"seq":${entry.seq},"subject":${JSON.stringify(entry.subject)},"messageId":${JSON.stringify(entry.messageId)},"body":${bodyJson}}\n`);
    if (!batches.writing) this.writeNext(entry.taskId, batches);
    return next.written.promise;
  }

  private writesUnderWay(): Array<Promise<void>> {
    return [...this.batches.values()].flatMap((batches) => (batches.writing ? [batches.writing] : []));
  }

  private writeNext(taskId: string, batches: AppendBatches): void {
    const batch = batches.next;
    batches.next = undefined;
    if (!batch) {
      batches.writing = undefined;
      return;
    }
    batches.writing = (async () => {
      try {
        const handle = await this.handleFor(taskId);
        await handle.write(batch.lines.join(''));
        batch.written.resolve();
      } catch (error) {
        batch.written.reject(error);
      }
    })().then(() => this.writeNext(taskId, batches));
  }

  /** Forces appended lines to disk (group commit: called per batch, not per line). */
  async sync(): Promise<void> {
    await Promise.all([...this.handles.values()].map(async (handle) => (await handle).datasync()));
  }

  async markAcknowledged(taskId: string, seq: number): Promise<void> {
    await writeFile(this.file(taskId, ACKED_SUFFIX), String(seq), { mode: PRIVATE_FILE_MODE });
  }

  async remove(taskId: string): Promise<void> {
    await this.batches.get(taskId)?.writing;
    this.batches.delete(taskId);
    const handle = this.handles.get(taskId);
    this.handles.delete(taskId);
    if (handle) await (await handle).close();
    await Promise.all([ENTRIES_SUFFIX, ACKED_SUFFIX, CLOSED_SUFFIX].map((suffix) => rm(this.file(taskId, suffix), { force: true })));
  }

  /**
   * What a previous run left: every task it has files of, and what is unacknowledged, per task in
   * seq order; a torn last line is dropped.
   */
  async recover(): Promise<{ tasks: string[]; pending: OutboxEntry[] }> {
    await this.prepareDirectory();
    const names = await readdir(this.directory);
    const tasks: string[] = [];
    const pending: OutboxEntry[] = [];
    for (const name of names.filter((candidate) => candidate.endsWith(ENTRIES_SUFFIX))) {
      const taskId = name.slice(0, -ENTRIES_SUFFIX.length);
      tasks.push(taskId);
      const acked = Number(await readFile(this.file(taskId, ACKED_SUFFIX), 'utf8').catch(() => '-1'));
      const lines = (await readFile(path.join(this.directory, name), 'utf8')).split('\n');
      for (const line of lines) {
        const entry = parseLine(line);
        if (entry && entry.seq > acked) pending.push(entry);
      }
    }
    pending.sort((left, right) => (left.taskId === right.taskId ? left.seq - right.seq : left.taskId.localeCompare(right.taskId)));
    return { tasks, pending };
  }

  async close(): Promise<void> {
    // A finished write starts the batch queued behind it: wait until none is left.
    for (let writing = this.writesUnderWay(); writing.length > 0; writing = this.writesUnderWay()) await Promise.all(writing);
    await this.sync();
    await Promise.all([...this.handles.values()].map(async (handle) => (await handle).close()));
    this.handles.clear();
  }

  private handleFor(taskId: string): Promise<FileHandle> {
    let handle = this.handles.get(taskId);
    if (!handle) {
      handle = this.prepareDirectory().then(() => open(this.file(taskId, ENTRIES_SUFFIX), 'a', PRIVATE_FILE_MODE));
      this.handles.set(taskId, handle);
    }
    return handle;
  }

  /** Once per store: also tightens the files an earlier version wrote with the default modes. */
  private prepareDirectory(): Promise<void> {
    this.prepared ??= Promise.resolve()
      .then(() => void preparePrivateDirectory(this.directory))
      .catch((error: unknown) => {
        // Tried again by the next caller (a full disk may have room by then).
        this.prepared = undefined;
        throw error;
      });
    return this.prepared;
  }

  private file(taskId: string, suffix: string): string {
    // Task ids are subject segments (no separators), so they are safe file names.
    return path.join(this.directory, `${taskId}${suffix}`);
  }
}

/** A task's lines: the write under way, and the batch that goes out after it. */
interface AppendBatches {
  writing: Promise<void> | undefined;
  next: { readonly lines: string[]; readonly written: Deferred } | undefined;
}

interface Deferred {
  readonly promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
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
