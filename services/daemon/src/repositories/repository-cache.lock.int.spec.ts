import { spawn } from 'node:child_process';
import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { withRepositoryLock } from './repository-cache.lock';

async function exitedProcessId(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('withRepositoryLock (real lock directories)', () => {
  let root: string;
  let lockPath: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'repository-lock-'));
    lockPath = path.join(root, 'web.git.lock');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('runs the work of concurrent callers one at a time and removes the lock after', async () => {
    let active = 0;
    let mostAtOnce = 0;
    const work = async (): Promise<void> => {
      active += 1;
      mostAtOnce = Math.max(mostAtOnce, active);
      await access(lockPath);
      for (let turn = 0; turn < 5; turn += 1) await nextTurn();
      active -= 1;
    };
    await Promise.all(Array.from({ length: 5 }, () => withRepositoryLock({ lockPath }, work)));
    expect(mostAtOnce).toBe(1);
    await expect(access(lockPath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps the queue going after a failed work', async () => {
    await expect(withRepositoryLock({ lockPath }, () => Promise.reject(new Error('git failed')))).rejects.toThrow('git failed');
    await expect(withRepositoryLock({ lockPath }, () => Promise.resolve('next'))).resolves.toBe('next');
  });

  it('waits while another live process holds the lock directory, then runs', async () => {
    // A live owner that is not this call: this very process, under another token (as a second daemon would be).
    await mkdir(lockPath);
    await writeFile(path.join(lockPath, 'owner.json'), JSON.stringify({ pid: process.pid, host: hostname(), token: 'other-daemon' }));
    let ran = false;
    const waiting = withRepositoryLock({ lockPath }, () => {
      ran = true;
      return Promise.resolve();
    });
    for (let turn = 0; turn < 20; turn += 1) await nextTurn();
    expect(ran).toBe(false);
    await rm(lockPath, { recursive: true });
    await waiting;
    expect(ran).toBe(true);
  });

  it('takes over a lock left by a process that died, and gives up waiting when cancelled', async () => {
    await mkdir(lockPath);
    await writeFile(path.join(lockPath, 'owner.json'), JSON.stringify({ pid: await exitedProcessId(), host: hostname(), token: 'crashed' }));
    await expect(withRepositoryLock({ lockPath }, () => Promise.resolve('took over'))).resolves.toBe('took over');

    await mkdir(lockPath);
    await writeFile(path.join(lockPath, 'owner.json'), JSON.stringify({ pid: process.pid, host: hostname(), token: 'other-daemon' }));
    const controller = new AbortController();
    const waiting = withRepositoryLock({ lockPath, signal: controller.signal }, () => Promise.resolve('never'));
    controller.abort(new Error('task cancelled'));
    await expect(waiting).rejects.toThrow('task cancelled');
  });
});
