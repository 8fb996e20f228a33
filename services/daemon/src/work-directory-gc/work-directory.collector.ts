import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { JsonLogger } from '@switchyard/service-kit';
import type { DaemonConfig } from '../daemon.config';
import { measureDirectorySize } from './directory-size.meter';
import { removeTree } from './tree.remover';
import { decideWorkDirectoryRemovals, type WorkDirectoryCandidate, type WorkDirectoryRemovalReason } from './work-directory-removal.decider';
import { judgeOwnership, listAgentDirectories, scanAgentDirectory, type AgentDirectory, type OwnedWorkDirectory } from './work-directory.scanner';
import { pruneWorkDirectoryTombstones, writeWorkDirectoryTombstone } from '../exec-env/work-directory.tombstone';

export interface WorkDirectoryGcSettings {
  /** Between passes; 0 disables the timer (`collectOnce()` still works). */
  intervalMs: number;
  maxAgeMs: number;
  maxBytesPerAgent: number;
}

export function workDirectoryGcSettingsOf(config: Pick<DaemonConfig, 'DAEMON_WORKDIR_GC_INTERVAL_MS' | 'DAEMON_WORKDIR_MAX_AGE_MS' | 'DAEMON_WORKDIR_MAX_BYTES_PER_AGENT'>): WorkDirectoryGcSettings {
  return { intervalMs: config.DAEMON_WORKDIR_GC_INTERVAL_MS, maxAgeMs: config.DAEMON_WORKDIR_MAX_AGE_MS, maxBytesPerAgent: config.DAEMON_WORKDIR_MAX_BYTES_PER_AGENT };
}

export interface WorkDirectoryCollectorOptions {
  /** The workspaces root the preparer uses (`<SWITCHYARD_HOME>/workspaces`). */
  root: string;
  /** The daemon installation's owner id: only directories whose marker names it are considered. */
  ownerId: string;
  settings: WorkDirectoryGcSettings;
  /** The work directories of this daemon's running tasks, as `prepareExecEnv` returned them; asked again right before each removal. */
  inUse: () => ReadonlySet<string>;
  /**
   * Takes the directory's repository checkouts down first (worktrees off their cache, links
   * unlinked, never followed): `removeRepositoryCheckouts` of `src/repositories/`.
   */
  removeRepositoryCheckouts: (workDirectory: string) => Promise<RepositoryCheckoutsRemovalOutcome>;
  logger: JsonLogger;
  now?: () => Date;
  /** Bound of the size walk per directory; see DEFAULT_MAX_MEASURED_ENTRIES. */
  maxMeasuredEntries?: number;
}

/** What the GC reads back from `removeRepositoryCheckouts`: checkouts it could not undo are logged, then deleted with the folder. */
export interface RepositoryCheckoutsRemovalOutcome {
  failures: readonly { path: string; reason: string }[];
}

export interface WorkDirectoryCollection {
  removed: { path: string; reason: WorkDirectoryRemovalReason; bytes: number }[];
  failed: { path: string; error: string }[];
  /** Decided for removal, but used (or in use) again by the time it came to it. */
  spared: { path: string; why: string }[];
  /** Entries under an agent folder that are not provably ours: never touched. */
  skipped: number;
  tombstonesPruned: number;
}

/**
 * Removes work directories this daemon made that are unused past their age or push their agent
 * past its size budget (`decideWorkDirectoryRemovals`), one pass at a time: never a directory in
 * use, never one without our marker, never through a symlink, never outside the root. Each
 * removal leaves a tombstone so a follow-up says `prior_collected`, not just "missing".
 */
export class WorkDirectoryCollector {
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<WorkDirectoryCollection> | undefined;
  private stopped = false;

  constructor(private readonly options: WorkDirectoryCollectorOptions) {}

  /** Passes every `intervalMs` (none when 0); the first one interval after start. */
  start(): void {
    if (this.options.settings.intervalMs === 0 || this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.collectOnce()
        .catch((error: unknown) => this.options.logger.error({ event: 'work_directory_gc_failed', err: error }, 'work-directory GC pass failed'))
        .finally(() => this.start());
    }, this.options.settings.intervalMs);
    // A pending pass never keeps the process alive.
    this.timer.unref();
  }

  /** No new pass; the one under way stops before its next removal and is awaited. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.pass?.catch(() => undefined);
  }

  /** One pass now; joins the pass under way if there is one. */
  collectOnce(): Promise<WorkDirectoryCollection> {
    this.pass ??= this.collect().finally(() => {
      this.pass = undefined;
    });
    return this.pass;
  }

  private async collect(): Promise<WorkDirectoryCollection> {
    const collection: WorkDirectoryCollection = { removed: [], failed: [], spared: [], skipped: 0, tombstonesPruned: 0 };
    const realRoot = await realpath(this.options.root).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!realRoot) return collection;
    for (const agent of await listAgentDirectories(realRoot)) {
      if (this.stopped) break;
      try {
        await this.collectAgent(agent, collection);
      } catch (error) {
        // One unreadable agent folder must not stop the others' collection.
        collection.failed.push({ path: agent.path, error: errorText(error) });
        this.options.logger.warn({ event: 'work_directory_gc_agent_failed', path: agent.path, err: error }, 'work-directory GC skipped an agent folder');
      }
    }
    if (collection.removed.length > 0 || collection.failed.length > 0) {
      const { removed, failed, spared, skipped, tombstonesPruned } = collection;
      const bytes = removed.reduce((total, removal) => total + removal.bytes, 0);
      this.options.logger.info({ event: 'work_directory_gc_pass', removed: removed.length, bytes, failed: failed.length, spared: spared.length, skipped, tombstonesPruned }, 'work-directory GC pass done');
    }
    return collection;
  }

  private async collectAgent(agent: AgentDirectory, collection: WorkDirectoryCollection): Promise<void> {
    const nowMs = this.nowMs();
    collection.tombstonesPruned += await pruneWorkDirectoryTombstones({ agentDirectory: agent.path, nowMs });
    const { owned, skipped } = await scanAgentDirectory({ agent, ownerId: this.options.ownerId });
    collection.skipped += skipped.length;
    for (const entry of skipped) this.options.logger.debug({ event: 'work_directory_gc_skipped', ...entry }, 'not provably ours: left alone');
    if (owned.length === 0) return;

    const inUse = this.inUseNow();
    const candidates: (WorkDirectoryCandidate & { owned: OwnedWorkDirectory })[] = [];
    for (const directory of owned) {
      if (this.stopped) return;
      const size = await measureDirectorySize(directory.path, { maxEntries: this.options.maxMeasuredEntries });
      candidates.push({ path: directory.path, sourceKey: directory.marker.sourceKey, sizeBytes: size.bytes, lastUsedAtMs: directory.lastUsedAtMs, inUse: inUse.has(directory.path), owned: directory });
    }
    const { maxAgeMs, maxBytesPerAgent } = this.options.settings;
    const decision = decideWorkDirectoryRemovals({ directories: candidates, retention: { maxAgeMs, maxBytesPerAgent }, nowMs });
    const byPath = new Map(candidates.map((candidate) => [candidate.path, candidate.owned]));
    for (const removal of decision.remove) {
      if (this.stopped) return;
      const owned = byPath.get(removal.path) as OwnedWorkDirectory;
      await this.removeOne({ agent, owned, reason: removal.reason, bytes: removal.sizeBytes, collection });
    }
    if (decision.overBudgetBytes > 0) {
      this.options.logger.warn(
        { event: 'work_directory_over_budget', path: agent.path, keptBytes: decision.keptBytes, overBudgetBytes: decision.overBudgetBytes },
        'agent work directories stay over DAEMON_WORKDIR_MAX_BYTES_PER_AGENT: only in-use, recent or resumable ones are left',
      );
    }
  }

  private async removeOne(options: { agent: AgentDirectory; owned: OwnedWorkDirectory; reason: WorkDirectoryRemovalReason; bytes: number; collection: WorkDirectoryCollection }): Promise<void> {
    const { agent, owned, reason, bytes, collection } = options;
    try {
      const spared = await this.whySpare(agent, owned);
      if (spared) {
        collection.spared.push({ path: owned.path, why: spared });
        return;
      }
      const checkouts = await this.options.removeRepositoryCheckouts(owned.path);
      for (const failure of checkouts.failures) {
        this.options.logger.warn({ event: 'repository_checkout_not_removed', path: failure.path, reason: failure.reason }, 'checkout deleted with its work directory, not through git');
      }
      await removeTree(owned.path);
      const removedAt = new Date(this.nowMs()).toISOString();
      await writeWorkDirectoryTombstone({ agentDirectory: agent.path, directoryName: owned.name, tombstone: { schemaVersion: 1, removedAt, reason, sourceKey: owned.marker.sourceKey } });
      collection.removed.push({ path: owned.path, reason, bytes });
      this.options.logger.info({ event: 'work_directory_removed', path: owned.path, reason, bytes }, `removed work directory (${reason}, ${bytes} bytes)`);
    } catch (error) {
      // The next pass tries again; the other directories go on.
      collection.failed.push({ path: owned.path, error: errorText(error) });
      this.options.logger.warn({ event: 'work_directory_removal_failed', path: owned.path, reason, err: error }, 'work directory not removed');
    }
  }

  /** Right before removing: in use now, used since the scan, or no longer provably ours and in place. */
  private async whySpare(agent: AgentDirectory, owned: OwnedWorkDirectory): Promise<string | undefined> {
    if (this.inUseNow().has(owned.path)) return 'a task runs in it now';
    const verdict = await judgeOwnership({ directory: owned.path, agent, ownerId: this.options.ownerId });
    if (verdict.kind !== 'owned') return `its marker no longer proves it ours (${verdict.detail})`;
    if (verdict.marker.lastUsedAt !== owned.marker.lastUsedAt) return 'it was used since the scan';
    // The path was built from the real root: any symlink swapped into it since would show here.
    if ((await realpath(owned.path)) !== owned.path) return 'its path now leads through a symlink';
    return undefined;
  }

  private inUseNow(): ReadonlySet<string> {
    return new Set([...this.options.inUse()].map((directory) => path.resolve(directory)));
  }

  private nowMs(): number {
    return (this.options.now ?? (() => new Date()))().getTime();
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
