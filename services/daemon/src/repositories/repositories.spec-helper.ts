import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_BRANCH_TEMPLATE, type RepositorySnapshot } from '@switchyard/contracts';
import { prepareWorkDirectory } from '../exec-env/work-directory.preparer';
import { sampleClaimedTask } from '../exec-env/exec-env.spec-helper';

const execFileAsync = promisify(execFile);

/** Runs git in `cwd` as a person (or the agent) would; resolves trimmed stdout. */
export async function gitIn(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('git', ['-c', 'user.name=Agent', '-c', 'user.email=agent@switchyard.invalid', ...args], { cwd, maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}

/** A temp folder per test holding the origin, the cache and the workspaces root. */
export async function createRepositoryPlayground(): Promise<{ root: string; cacheRoot: string; workspacesRoot: string; remove: () => Promise<void> }> {
  const root = await mkdtemp(path.join(tmpdir(), 'switchyard-repositories-'));
  const cacheRoot = path.join(root, 'home', 'repo-cache');
  const workspacesRoot = path.join(root, 'workspaces');
  await mkdir(workspacesRoot, { recursive: true });
  return { root, cacheRoot, workspacesRoot, remove: () => rm(root, { recursive: true, force: true }) };
}

/** A fresh task work dir made by the real preparer (marker, git-ignored `.switchyard/`). */
export async function freshWorkDirectory(workspacesRoot: string, taskId: string): Promise<string> {
  const task = sampleClaimedTask({ taskId, source: { kind: 'quick_create' } });
  return (await prepareWorkDirectory({ root: workspacesRoot, ownerId: 'owner-1', task, priorWorkDirectory: null })).path;
}

export function worktreeRepository(overrides: Partial<RepositorySnapshot> & { url: string }): RepositorySnapshot {
  return {
    name: 'web',
    checkoutMode: 'worktree',
    localPath: null,
    defaultBranch: 'main',
    branchTemplate: DEFAULT_BRANCH_TEMPLATE,
    credential: null,
    checkoutAtStart: true,
    ...overrides,
  };
}

/** Every file under `directory` whose bytes contain `needle` (relative paths); symlinks are not followed. */
export async function filesContaining(directory: string, needle: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && (await readFile(full)).includes(needle)) found.push(path.relative(directory, full));
    }
  };
  await walk(directory);
  return found;
}

/** Awaits `promise` expecting a rejection, and returns it for closer looks. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}
