import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OutboxFileStore, type OutboxEntry } from './outbox-file.store';

const modeOf = async (file: string): Promise<string> => ((await stat(file)).mode & 0o777).toString(8);

function entry(taskId: string, seq: number): OutboxEntry {
  return { taskId, seq, subject: `task.message.${taskId}.daemon-1`, messageId: `daemon-1:${taskId}:${seq}`, body: { taskId, seq, text: 'agent output' } };
}

describe('outbox files on disk', () => {
  let home: string;

  beforeEach(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'switchyard-outbox-files-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('keeps task messages owner-only: the folder 0700, the entries and the acknowledged mark 0600', async () => {
    const directory = path.join(home, 'outbox');
    const store = new OutboxFileStore(directory);
    await store.recover();
    await store.append(entry('task-1', 0));
    await store.markAcknowledged('task-1', 0);
    await store.close();

    expect(await modeOf(directory)).toBe('700');
    expect(await modeOf(path.join(directory, 'task-1.jsonl'))).toBe('600');
    expect(await modeOf(path.join(directory, 'task-1.acked'))).toBe('600');
  });

  it('tightens what an earlier version left world-readable, and still recovers it', async () => {
    const directory = path.join(home, 'outbox');
    await mkdir(directory, { mode: 0o755 });
    await chmod(directory, 0o755);
    await writeFile(path.join(directory, 'task-2.jsonl'), `${JSON.stringify(entry('task-2', 0))}\n`, { mode: 0o644 });
    await chmod(path.join(directory, 'task-2.jsonl'), 0o644);

    const store = new OutboxFileStore(directory);
    const recovered = await store.recover();
    await store.close();

    expect(recovered.pending).toEqual([entry('task-2', 0)]);
    expect(await modeOf(directory)).toBe('700');
    expect(await modeOf(path.join(directory, 'task-2.jsonl'))).toBe('600');
  });
});
