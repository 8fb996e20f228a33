import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { RepositorySnapshot, RepositoryWorkResult } from '@switchyard/contracts';
import { createOriginRepository, generateRepositoryFiles, workspaceRoot } from '@switchyard/testing';
import { latencyCell, ratioCell, type TableRow } from './report-table';
import { elapsedMs, summarizeLatencies, type LatencySummary } from './statistics';

const execFileAsync = promisify(execFile);

/**
 * The part of the daemon's repository API (services/daemon/src/repositories) the bench drives,
 * loaded from dist at run time: a tool may not import a service's source.
 */
interface RepositoriesModule {
  openRepositoryCache(root: string): Promise<unknown>;
  prepareRepositoryCheckout(options: { cache: unknown; repository: RepositorySnapshot; workDirectory: string; branchName: string; taskId: string }): Promise<unknown>;
  summariseRepositoryWork(options: { workDirectory: string; repository: Pick<RepositorySnapshot, 'name' | 'checkoutMode'> }): Promise<RepositoryWorkResult>;
}

export interface RepositoryPrepareFigures {
  readonly files: number;
  /** Baselines: plain git on the same repository, in the same run. */
  readonly bareClone: LatencySummary;
  readonly bareWorktreeAdd: LatencySummary;
  /** `prepareRepositoryCheckout` with an empty cache: clone + worktree. */
  readonly coldPrepare: LatencySummary;
  /** With the cache there: fetch + worktree. */
  readonly warmPrepare: LatencySummary;
  /** `summariseRepositoryWork` of an untouched worktree, beside `git status`. */
  readonly summarise: LatencySummary;
  readonly bareStatus: LatencySummary;
}

const git = (cwd: string, ...args: string[]) => execFileAsync('git', args, { cwd, env: { PATH: process.env['PATH'], HOME: process.env['HOME'], LC_ALL: 'C' } });

/** Runs every step once per round, round after round: load on a shared machine then weighs on each step alike. */
async function timedInTurns<Name extends string>(rounds: number, steps: Record<Name, (round: number) => Promise<unknown>>): Promise<Record<Name, LatencySummary>> {
  const latencies = Object.fromEntries(Object.keys(steps).map((name) => [name, [] as number[]])) as Record<Name, number[]>;
  for (let round = 0; round < rounds; round += 1) {
    for (const name of Object.keys(steps) as Name[]) {
      const start = process.hrtime.bigint();
      await steps[name](round);
      latencies[name].push(elapsedMs(start));
    }
  }
  return Object.fromEntries(Object.entries(latencies).map(([name, samples]) => [name, summarizeLatencies(samples as number[])])) as Record<Name, LatencySummary>;
}

/**
 * Time to give a task its worktree of a `files`-file repository (a `file://` origin, so the
 * figures are git's and ours, not a network's): cold (clone + worktree) and warm (fetch +
 * worktree), beside a bare `git clone --bare` and `git worktree add` of the same repository.
 */
export async function measureRepositoryPrepare(options: { files: number; samples: number }): Promise<RepositoryPrepareFigures> {
  const repositories = (await import(path.join(workspaceRoot(), 'dist/services/daemon/src/repositories/index.js'))) as RepositoriesModule;
  const root = await mkdtemp(path.join(tmpdir(), 'bench-repositories-'));
  try {
    const origin = await createOriginRepository({ directory: path.join(root, 'origin.git'), files: generateRepositoryFiles(options.files) });
    const repository: RepositorySnapshot = {
      name: 'bench',
      checkoutMode: 'worktree',
      url: origin.url,
      localPath: null,
      defaultBranch: origin.branch,
      branchTemplate: 'unused',
      credential: null,
      checkoutAtStart: true,
    };
    const workDirectory = async (label: string): Promise<string> => {
      const directory = path.join(root, 'work', label);
      await mkdir(directory, { recursive: true });
      return directory;
    };

    // The warm cache and the bare clone the baseline adds worktrees to, made before the clock starts.
    const warmCache = await repositories.openRepositoryCache(path.join(root, 'cache-warm'));
    await repositories.prepareRepositoryCheckout({ cache: warmCache, repository, workDirectory: await workDirectory('warm-setup'), branchName: 'warm-setup', taskId: 'warm-setup' });
    await git(root, 'clone', '--bare', '--quiet', origin.url, path.join(root, 'baseline.git'));
    const figures = await timedInTurns(options.samples, {
      bareClone: (round) => git(root, 'clone', '--bare', '--quiet', origin.url, path.join(root, `bare-${round}.git`)),
      bareWorktreeAdd: async (round) => git(path.join(root, 'baseline.git'), 'worktree', 'add', '--quiet', '-b', `bare-${round}`, await workDirectory(`bare-${round}/bench`), origin.headCommit),
      coldPrepare: async (round) => {
        const cache = await repositories.openRepositoryCache(path.join(root, `cache-cold-${round}`));
        return repositories.prepareRepositoryCheckout({ cache, repository, workDirectory: await workDirectory(`cold-${round}`), branchName: `cold-${round}`, taskId: `cold-${round}` });
      },
      warmPrepare: async (round) =>
        repositories.prepareRepositoryCheckout({ cache: warmCache, repository, workDirectory: await workDirectory(`warm-${round}`), branchName: `warm-${round}`, taskId: `warm-${round}` }),
      bareStatus: () => git(path.join(root, 'work', 'warm-setup', 'bench'), 'status', '--porcelain'),
      summarise: () => repositories.summariseRepositoryWork({ workDirectory: path.join(root, 'work', 'warm-setup'), repository }),
    });
    return { files: options.files, ...figures };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

export function repositoryPrepareRows(figures: RepositoryPrepareFigures): TableRow[] {
  const files = `${figures.files.toLocaleString('en-US')} files`;
  const samples = (summary: LatencySummary): string => `${files}, ${summary.count} runs`;
  const cloneAndAdd = figures.bareClone.p50 + figures.bareWorktreeAdd.p50;
  return [
    ['git clone --bare (baseline)', latencyCell(figures.bareClone), samples(figures.bareClone), '1.00'],
    ['git worktree add (baseline)', latencyCell(figures.bareWorktreeAdd), samples(figures.bareWorktreeAdd), '1.00'],
    ['repo checkout, cold cache (clone+worktree)', latencyCell(figures.coldPrepare), samples(figures.coldPrepare), ratioCell(figures.coldPrepare.p50, cloneAndAdd, 'p50 of clone + add')],
    ['repo checkout, warm cache (fetch+worktree)', latencyCell(figures.warmPrepare), samples(figures.warmPrepare), ratioCell(figures.warmPrepare.p50, figures.bareWorktreeAdd.p50, 'p50 of worktree add')],
    ['repo work summary (untouched worktree)', latencyCell(figures.summarise), samples(figures.summarise), ratioCell(figures.summarise.p50, figures.bareStatus.p50, 'p50 of git status')],
  ];
}
