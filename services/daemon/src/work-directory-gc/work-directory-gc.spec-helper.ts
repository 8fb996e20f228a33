import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ClaimedTask } from '@switchyard/contracts';
import { createJsonLogger, type JsonLogger } from '@switchyard/service-kit';
import { sampleClaimedTask } from '../exec-env/exec-env.spec-helper';
import { prepareWorkDirectory } from '../exec-env/work-directory.preparer';

const run = promisify(execFile);
export const DAY_MS = 24 * 3_600_000;

/** A real work directory made by the real preparer, last used `idleMs` before `nowMs`, holding `fileBytes` of data. */
export async function makeWorkDirectory(options: {
  root: string;
  ownerId: string;
  nowMs: number;
  idleMs: number;
  task?: Partial<ClaimedTask>;
  fileBytes?: number;
}): Promise<string> {
  const task = sampleClaimedTask({ source: { kind: 'quick_create' }, ...options.task });
  const prepared = await prepareWorkDirectory({ root: options.root, ownerId: options.ownerId, task, priorWorkDirectory: null, now: () => new Date(options.nowMs - options.idleMs) });
  await writeFile(path.join(prepared.path, 'work.bin'), Buffer.alloc(options.fileBytes ?? 4_096, 7));
  return prepared.path;
}

/** A JSON logger whose lines the test reads back. */
export function capturingLogger(): { logger: JsonLogger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = createJsonLogger({ service: 'work-directory-gc-test', level: 'debug', destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
  return { logger, lines };
}

export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-c', 'user.name=Switchyard Test', '-c', 'user.email=test@switchyard.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd });
  return stdout;
}

/** A bare cache repository with one commit on `main`, as the daemon's repository cache keeps them. */
export async function makeBareCache(options: { directory: string; name: string }): Promise<string> {
  const source = path.join(options.directory, `${options.name}-source`);
  await mkdir(source, { recursive: true });
  await git(source, 'init', '--quiet');
  await writeFile(path.join(source, 'README.md'), '# demo\n');
  await git(source, 'add', 'README.md');
  await git(source, 'commit', '--quiet', '-m', 'first');
  const cache = path.join(options.directory, 'repo-cache', `0123456789abcdef-${options.name}.git`);
  await mkdir(path.dirname(cache), { recursive: true });
  await git(options.directory, 'clone', '--quiet', '--bare', source, cache);
  return cache;
}
