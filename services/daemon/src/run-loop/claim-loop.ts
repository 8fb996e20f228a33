import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import type { ClaimedTask } from '@switchyard/contracts';
import { BackendCatalog } from './backend.catalog';
import { prepareRuntimeLaunch } from './runtime-launch.preparer';
import { MESSAGING_CONNECTION, type CurveKeyHolder, type MessagingConnection } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import type { DaemonConfig } from '../daemon.config';
import { DAEMON_CONFIG, DAEMON_LOGGER } from '../daemon.injection-keys';
import { TaskMessageOutbox } from '../outbox/task-message.outbox';
import type { DetectedRuntime } from '../runtimes/runtime-detector';
import { RuntimeRegistry } from '../runtimes/runtime-registry';
import { DaemonNoticesRouter } from './daemon-notices.router';
import { QueueClient } from './queue.client';
import { SlotTracker } from '../runtimes/slot-tracker';
import { runClaimedTask } from './task-runner';
import { LiveAttemptLeases } from './attempt-lease.keeper';
import { watchBusReconnects } from '../runtimes/bus-reconnects.watch';
import { containmentScopeOf } from './containment-scope';
import { createRunContainments, type RunContainments } from '@switchyard/agent-adapters/wing';
import { reportUnexpectedRunFailure } from './unexpected-run-failure.reporter';
import { inClaimSpan, inRunSpan, markRunFailed } from './task-run.spans';
import { openClaimedTask } from './claimed-task.opener';
import { loadSealingKey } from '../enrollment/daemon-sealing-key';
import { DEFAULT_YARD_ENTRY, installYardShim, type AgentCallback } from '../exec-env';
import { AgentRequestServer } from '../agent-requests';
import { LocalDirectoryLocks, openRepositoryCache, removeRepositoryCheckouts } from '../repositories';
import { WorkDirectoryCollector, workDirectoryGcSettingsOf } from '../work-directory-gc';
import type { RepositoryServices } from './task-repositories';

/** Runs on the queue's nudge; this slow poll only catches a lost nudge. */
const SAFETY_POLL_MS = 30_000;

/**
 * Claims work for this daemon's runtimes when the queue says there is some (and on a slow safety
 * poll), never beyond the free slots, and runs each claimed task. The queue's notices come on one
 * subscription (`notify.<DAEMON_ID>.>`): nudges claim, cancels stop the run they name. At shutdown
 * it stops claiming and ends the runs truthfully: aborted, reported as `cancelled_by_shutdown` so
 * the queue retries them.
 */
@Injectable()
export class ClaimLoop implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly queue: QueueClient;
  private readonly shutdown = new AbortController();
  /**
   * One abort per run, all aborted at shutdown. Each run listens on its signal for as long as it
   * lasts, so with one signal shared by every run more than 10 runs in flight would trip Node's
   * MaxListenersExceededWarning (and hide a real leak behind a raised limit).
   */
  private readonly runAborts = new Set<AbortController>();
  private readonly running = new Set<Promise<void>>();
  private readonly backends = new BackendCatalog();
  private outbox: TaskMessageOutbox | undefined;
  private poll: NodeJS.Timeout | undefined;
  private claiming: Promise<void> = Promise.resolve();
  private claimAgain = false;
  private readonly notices: DaemonNoticesRouter;
  private stopListeningToSlots: (() => void) | undefined;
  /** The key claimed tasks' secrets are sealed to; its public half goes with every claim. */
  private readonly sealingKey: CurveKeyHolder;
  /** Written once at boot: every run's agent gets the same `yard` and gateway URL. */
  private callback: AgentCallback = { apiUrl: undefined, binDirectory: undefined };
  /** The bare clones under `<home>/repo-cache` and the local-directory locks, opened at boot. */
  private repositories: RepositoryServices | undefined;
  /** `yard repo ...` of the running agents, on `<home>/agent-tools/daemon.sock`. */
  private readonly agentRequests: AgentRequestServer;
  private collector: WorkDirectoryCollector | undefined;
  private readonly workDirectoriesInUse = new Set<string>();
  private readonly liveLeases = new LiveAttemptLeases();
  /** How each run's process tree is contained (cgroup or marker), chosen once here. */
  private readonly containments: RunContainments;
  /** What runs of an earlier process of this daemon left is ended before the first claim. */
  private leftoversSwept: Promise<void> = Promise.resolve();

  constructor(
    @Inject(MESSAGING_CONNECTION) private readonly connection: MessagingConnection,
    @Inject(DAEMON_CONFIG) private readonly config: DaemonConfig,
    @Inject(DAEMON_LOGGER) private readonly logger: JsonLogger,
    private readonly registry: RuntimeRegistry,
    private readonly slots: SlotTracker,
  ) {
    this.queue = new QueueClient(connection, config.DAEMON_ID);
    this.agentRequests = new AgentRequestServer({ socketPath: path.resolve(config.SWITCHYARD_HOME, 'agent-tools', 'daemon.sock'), logger });
    this.sealingKey = loadSealingKey({ seedFile: config.DAEMON_CURVE_SEED_FILE, home: path.resolve(config.SWITCHYARD_HOME) });
    this.containments = createRunContainments({ mode: config.DAEMON_PROCESS_CONTAINMENT, scope: containmentScopeOf({ daemonId: config.DAEMON_ID, ownerId: this.ownerId() }) });
    logger.info({ event: 'process_containment', mechanism: this.containments.mechanism, description: this.containments.description }, `run processes are contained by ${this.containments.description}`);
    this.notices = new DaemonNoticesRouter({
      connection,
      daemonId: config.DAEMON_ID,
      logger,
      // Also runtimes detected after boot; a runtime this daemon no longer offers is not claimed for.
      onWorkAvailable: (runtimeId) => {
        if (this.registry.current().some((runtime) => runtime.runtimeId === runtimeId)) this.requestClaim();
      },
    });
  }

  /** Timeline messages the outbox holds until JetStream acknowledges them; undefined before it opened. */
  pendingOutboxMessages(): number | undefined {
    return this.outbox?.pendingCount();
  }

  async onApplicationBootstrap(): Promise<void> {
    this.leftoversSwept = this.sweepLeftovers();
    // The slots open once the queue released this DAEMON_ID's previous attempts: claim then.
    this.stopListeningToSlots = this.slots.onOpened(() => this.requestClaim());
    this.outbox = await TaskMessageOutbox.open({ directory: path.resolve(this.config.SWITCHYARD_HOME, 'outbox'), connection: this.connection, logger: this.logger });
    const cacheRoot = this.directory('repo-cache');
    this.repositories = { cache: await openRepositoryCache(cacheRoot), localDirectories: new LocalDirectoryLocks() };
    this.callback = { ...this.installCallback(), daemonSocket: await this.agentRequests.start() };
    this.collector = new WorkDirectoryCollector({
      root: this.directory('workspaces'),
      ownerId: this.ownerId(),
      settings: workDirectoryGcSettingsOf(this.config),
      inUse: () => this.workDirectoriesInUse,
      removeRepositoryCheckouts: (workDirectory) => removeRepositoryCheckouts(workDirectory, { cacheRoot }),
      logger: this.logger,
    });
    this.collector.start();
    await this.registry.whenDetected();
    this.notices.start();
    watchBusReconnects({ connection: this.connection, logger: this.logger, onReconnect: () => this.resumeAfterReconnect() });
    this.poll = setInterval(() => this.requestClaim(), SAFETY_POLL_MS);
    this.requestClaim();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.poll);
    this.stopListeningToSlots?.();
    this.shutdown.abort();
    this.runAborts.forEach((runAbort) => runAbort.abort());
    await this.claiming;
    await Promise.allSettled([...this.running]);
    this.notices.stop();
    await this.collector?.stop();
    await this.agentRequests.stop();
    await this.outbox?.stop();
    // Every run has ended and released its cgroup: the daemon's own cgroup folder goes too.
    this.containments.close();
  }

  /**
   * Back on the bus after a disconnect: every run in flight renews at once (the queue kept its
   * attempt for the reconnect grace, or gave it up, and then the run stops), and only then does
   * the daemon claim again, so a retry of a given-up attempt never runs beside the old run.
   */
  private async resumeAfterReconnect(): Promise<void> {
    if (this.shutdown.signal.aborted) return;
    const renewals = await this.liveLeases.renewAll();
    this.logger.info({ event: 'bus_reconnected', liveAttempts: renewals }, `NATS link back: ${renewals.kept} live attempts kept, ${renewals.stop} given up by the queue (stopped), ${renewals.unanswered} unanswered`);
    this.requestClaim();
  }

  /** Coalesces nudges: one claim at a time, and one more if nudged meanwhile. */
  private requestClaim(): void {
    if (this.shutdown.signal.aborted) return;
    this.claimAgain = true;
    this.claiming = this.claiming.then(async () => {
      while (this.claimAgain && !this.shutdown.signal.aborted) {
        this.claimAgain = false;
        await this.claimOnce().catch((error: unknown) => this.logger.warn({ err: error }, 'claim failed'));
      }
    });
  }

  /** A killed daemon's CLIs may outlive it (double-forked children do): they end before this process claims. */
  private async sweepLeftovers(): Promise<void> {
    const sweep = await this.containments.sweepLeftovers({ graceMs: 2_000 });
    if (sweep.swept > 0) this.logger.warn({ event: 'leftover_run_processes_swept', ...sweep }, `ended ${sweep.swept} processes left by runs of an earlier daemon process`);
  }

  private async claimOnce(): Promise<void> {
    await this.leftoversSwept;
    const runtimes = this.registry.current().filter((runtime) => this.backends.supports(runtime));
    if (runtimes.length === 0 || this.slots.freeSlots === 0) return;
    await inClaimSpan(this.config.DAEMON_ID, async (claim) => {
      const reply = await this.queue.send('task.claim', { daemonId: this.config.DAEMON_ID, runtimeIds: runtimes.map((runtime) => runtime.runtimeId), maxTasks: this.slots.freeSlots, sealingKey: this.sealingKey.publicKey });
      if (!reply.ok) return;
      for (const task of reply.result.tasks) this.start(task, runtimes, claim);
      // A full batch means there may be more waiting.
      if (reply.result.tasks.length > 0 && this.slots.freeSlots > 0) this.claimAgain = true;
    });
  }

  private start(task: ClaimedTask, runtimes: DetectedRuntime[], claim: Context): void {
    const runtime = runtimes.find((candidate) => candidate.runtimeId === task.runtimeId);
    const { outbox, repositories } = this;
    if (!runtime || !outbox || !repositories) return;
    this.slots.take(task.taskId);
    const runAbort = new AbortController();
    // A claim answered after shutdown began: its run starts aborted.
    if (this.shutdown.signal.aborted) runAbort.abort();
    this.runAborts.add(runAbort);
    // Opened inside the run: a box that does not open fails this run like any unexpected error.
    const run = inRunSpan({ task, daemonId: this.config.DAEMON_ID, claim }, () => this.runToReport({ task, runtime, runAbort, outbox, repositories }))
      .finally(() => {
        this.runAborts.delete(runAbort);
        this.slots.release(task.taskId);
        this.running.delete(run);
        this.requestClaim();
      });
    this.running.add(run);
  }

  /** Runs the task and reports how it ended; an unexpected error is reported as the run's failure, never thrown. */
  private runToReport(options: {
    readonly task: ClaimedTask;
    readonly runtime: DetectedRuntime;
    readonly runAbort: AbortController;
    readonly outbox: TaskMessageOutbox;
    readonly repositories: RepositoryServices;
  }): Promise<void> {
    const { task, runtime, runAbort, outbox, repositories } = options;
    return Promise.resolve().then(() => runClaimedTask(openClaimedTask(task, this.sealingKey), runtime, {
      daemonId: this.config.DAEMON_ID,
      workspaceId: this.config.DAEMON_WORKSPACE_ID,
      connection: this.connection,
      queue: this.queue,
      cancelNotices: this.notices,
      outbox,
      logger: this.logger,
      workspacesRoot: path.resolve(this.config.SWITCHYARD_HOME, 'workspaces'),
      ownerId: this.ownerId(),
      homeFor: (target) => this.directory('runtime-homes', target.identity.identity),
      // One cache per identity, shared with the version probes: a CLI that unpacks itself there
      // (Copilot: 235 MB) does it once per machine, not once per home.
      runtimeEnvironmentFor: async (target, claimed, home) => ({ XDG_CACHE_HOME: this.directory('cache', target.identity.identity), ...(await prepareRuntimeLaunch(target, claimed, home)) }),
      backendFor: (target) => this.backends.backendFor(target),
      timeouts: { idleMs: this.config.DAEMON_IDLE_TIMEOUT_MS, toolBudgetMs: this.config.DAEMON_TOOL_BUDGET_MS, totalMs: this.config.DAEMON_RUN_TIMEOUT_MS },
      renewEveryMs: 10_000,
      liveLeases: this.liveLeases,
      containments: this.containments,
      sessionResolveTimeoutMs: this.config.DAEMON_SESSION_RESOLVE_TIMEOUT_MS,
      shutdown: runAbort.signal,
      callback: this.callback,
      repositories,
      workDirectoriesInUse: this.workDirectoriesInUse,
      registerAgentRequests: (registration) => this.agentRequests.register(registration),
    }))
      .catch(async (error: unknown) => {
        markRunFailed(error);
        this.logger.error({ err: error, taskId: task.taskId }, 'task run failed unexpectedly');
        await reportUnexpectedRunFailure({ queue: this.queue, task, daemonId: this.config.DAEMON_ID, error, signal: runAbort.signal }).catch((reportError: unknown) =>
          this.logger.error({ err: reportError, taskId: task.taskId }, 'the unexpected run failure could not be reported; the lease will end the attempt'),
        );
      });
  }

  /** The `yard` shim under the home, and the gateway agents call back; each missing one is logged once, here. */
  private installCallback(): AgentCallback {
    const yardEntry = this.config.DAEMON_YARD_ENTRY ?? DEFAULT_YARD_ENTRY;
    const binDirectory = installYardShim({ home: path.resolve(this.config.SWITCHYARD_HOME), nodeExecutable: process.execPath, yardEntry });
    if (!binDirectory) this.logger.warn({ event: 'yard_unavailable', yardEntry }, 'the built yard CLI is missing: agents get no yard on their PATH (build with tools/build/build.mjs)');
    if (!this.config.DAEMON_GATEWAY_URL) this.logger.warn({ event: 'gateway_url_unset' }, 'DAEMON_GATEWAY_URL is not set: agents get no SWITCHYARD_API_URL and cannot call back');
    return { apiUrl: this.config.DAEMON_GATEWAY_URL, binDirectory };
  }

  /** This installation's id, kept across restarts: it proves work directories are ours. */
  private ownerId(): string {
    const file = path.join(this.directory(), 'owner-id');
    if (!existsSync(file)) writeFileSync(file, randomBytes(16).toString('hex'), { mode: 0o600 });
    return readFileSync(file, 'utf8').trim();
  }

  private directory(...segments: string[]): string {
    const directory = path.resolve(this.config.SWITCHYARD_HOME, ...segments);
    mkdirSync(directory, { recursive: true });
    return directory;
  }
}
