import type { ClaimedTask, RepositorySnapshot, RepositoryWorkResult } from '@switchyard/contracts';
import type { JsonLogger } from '@switchyard/service-kit';
import type { ContextRepository } from '../exec-env';
import {
  canonicalLocalDirectory,
  prepareRepositoryCheckout,
  readRepositoryCheckouts,
  renderRepositoryBranchName,
  summariseRepositoryWork,
  type LocalDirectoryLocks,
  type RepositoryCache,
  type RepositoryCheckout,
} from '../repositories';

/** What every run of the daemon shares: the bare clones and who works in which local directory. */
export interface RepositoryServices {
  readonly cache: RepositoryCache;
  readonly localDirectories: LocalDirectoryLocks;
}

export interface TaskRepositoriesOptions {
  readonly task: ClaimedTask;
  readonly services: RepositoryServices;
  /** Aborts a clone, a fetch or a wait for a local directory (the run was cancelled or the daemon stops). */
  readonly signal: AbortSignal;
  /** Says, once per path, that the task waits for a local directory another task of this daemon works in. */
  readonly onLocalDirectoryBusy: (localPath: string, heldByTaskId: string) => Promise<void>;
  readonly log: JsonLogger;
}

/**
 * The repositories of one run: those of the project checked out as the run starts, the
 * others on the agent's request (`yard repo checkout`), and what each looked like when the run
 * ended. A local directory is held for the whole run; `release` gives it up however the run ended.
 */
export class TaskRepositories {
  private readonly checkouts = new Map<string, RepositoryCheckout>();
  private readonly pending = new Map<string, Promise<RepositoryCheckout>>();
  private workDirectory: string | undefined;

  constructor(private readonly options: TaskRepositoriesOptions) {}

  get all(): readonly RepositorySnapshot[] {
    return this.options.task.agent.repositories;
  }

  /** Checks out every repository marked for the start, in the prepared work dir; says how the brief lists each. */
  async prepareAtStart(workDirectory: string): Promise<ContextRepository[]> {
    this.workDirectory = workDirectory;
    for (const repository of this.all.filter((candidate) => candidate.checkoutAtStart)) await this.checkout(repository.name);
    return this.all.map((repository) => this.contextOf(repository));
  }

  /** Checks one repository out into the work dir (once: a repeat answers the same checkout). */
  checkout(name: string): Promise<RepositoryCheckout> {
    const done = this.checkouts.get(name);
    if (done) return Promise.resolve(done);
    const inFlight = this.pending.get(name);
    if (inFlight) return inFlight;
    const repository = this.all.find((candidate) => candidate.name === name);
    if (!repository) return Promise.reject(new Error(`the task has no repository named ${name}`));
    const started = this.checkoutOnce(repository).finally(() => this.pending.delete(name));
    this.pending.set(name, started);
    return started;
  }

  /** For `yard repo list`. */
  list(): Array<{ name: string; checkoutMode: RepositorySnapshot['checkoutMode']; checkedOut: boolean; path: string | null }> {
    return this.all.map((repository) => {
      const checkout = this.checkouts.get(repository.name);
      return { name: repository.name, checkoutMode: repository.checkoutMode, checkedOut: checkout !== undefined, path: checkout?.path ?? null };
    });
  }

  /** What each checked-out repository looks like now; one that cannot be read is logged and left out. */
  async summarise(): Promise<RepositoryWorkResult[]> {
    const workDirectory = this.workDirectory;
    if (workDirectory === undefined) return [];
    const results: RepositoryWorkResult[] = [];
    for (const checkout of this.checkouts.values()) {
      try {
        results.push(await summariseRepositoryWork({ workDirectory, repository: { name: checkout.name, checkoutMode: checkout.checkoutMode } }));
      } catch (error) {
        this.options.log.warn({ err: error, repository: checkout.name }, 'the repository work could not be summarised');
      }
    }
    return results;
  }

  /** Gives up every local directory this run holds. */
  release(): void {
    this.options.services.localDirectories.releaseAllOf(this.options.task.taskId);
  }

  private async checkoutOnce(repository: RepositorySnapshot): Promise<RepositoryCheckout> {
    const workDirectory = this.workDirectory;
    if (workDirectory === undefined) throw new Error('the work directory is not prepared yet');
    const { task, services, signal } = this.options;
    if (repository.checkoutMode === 'local_directory') await this.holdLocalDirectory(repository);
    // A follow-up in the same work dir continues the branch its first task made there.
    const recorded = (await readRepositoryCheckouts(workDirectory))[repository.name];
    const checkout = await prepareRepositoryCheckout({
      cache: services.cache,
      repository,
      workDirectory,
      branchName: recorded?.branch ?? renderRepositoryBranchName({ repository, task, agentName: task.agent.name }),
      taskId: task.taskId,
      signal,
    });
    this.checkouts.set(repository.name, checkout);
    this.options.log.info({ event: 'repository_checked_out', repository: repository.name, branch: checkout.branch, reused: checkout.reused }, 'repository checked out');
    return checkout;
  }

  /** One task at a time in a local directory: waits (saying so once) while another task of this daemon holds it. */
  private async holdLocalDirectory(repository: RepositorySnapshot): Promise<void> {
    const { services, task, signal } = this.options;
    const localPath = await canonicalLocalDirectory(repository);
    let announced = false;
    for (;;) {
      const acquisition = await services.localDirectories.tryAcquire(localPath, task.taskId);
      if (acquisition.acquired) return;
      if (!announced) {
        announced = true;
        await this.options.onLocalDirectoryBusy(acquisition.path, acquisition.heldBy);
      }
      await services.localDirectories.waitFor(localPath, signal);
    }
  }

  private contextOf(repository: RepositorySnapshot): ContextRepository {
    const checkout = this.checkouts.get(repository.name);
    return {
      name: repository.name,
      checkoutMode: repository.checkoutMode,
      folder: checkout ? repository.name : null,
      branch: checkout?.branch ?? null,
      defaultBranch: repository.defaultBranch,
    };
  }
}
