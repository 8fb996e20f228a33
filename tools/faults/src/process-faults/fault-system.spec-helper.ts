import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCommand, subjects, type CommandPayloadOf, type CommandResultOf, type TaskFailureReason } from '@switchyard/contracts';
import { isRetryableError, requestReply } from '@switchyard/messaging';
import { processesWithEnvironment, sampleAgentSnapshot, startSystemProcesses, type ServiceChild, type SystemProcesses, type SystemService } from '@switchyard/testing';
import { installSteadyClaude, steadyPrompt, type SteadyAgentBin, type SteadyScript } from './steady-agent.installer';
import { judgeTasks, type TaskRow, type TaskTruthReport } from './task-truth';
import { auditTimeline, queryRows, readTaskMessages, type TimelineAudit } from './timeline-audit';

/**
 * Short timings so faults resolve within a test (each service's config schema documents them).
 * The daemon renews leases every 10 s (fixed), so the lease stays above that.
 */
export const FAULT_QUEUE_ENV = {
  QUEUE_SWEEP_INTERVAL_MS: '500',
  QUEUE_RUNTIME_OFFLINE_AFTER_MS: '3000',
  QUEUE_HEARTBEAT_INTERVAL_MS: '500',
  QUEUE_LEASE_MS: '15000',
  QUEUE_START_DEADLINE_MS: '5000',
  QUEUE_DEFAULT_MAX_ATTEMPTS: '3',
  // A silent daemon's attempts are lost as soon as its runtime is offline, unless a scenario says otherwise.
  QUEUE_RECONNECT_GRACE_MS: '3000',
} as const;
/** The queue's settings: the defaults above under the scenario's; a longer offline window brings the grace along (it may not be shorter). */
function faultQueueEnv(overrides: Readonly<Record<string, string>> = {}): Record<string, string> {
  const offline = overrides['QUEUE_RUNTIME_OFFLINE_AFTER_MS'] ?? FAULT_QUEUE_ENV.QUEUE_RUNTIME_OFFLINE_AFTER_MS;
  return { ...FAULT_QUEUE_ENV, QUEUE_RECONNECT_GRACE_MS: String(Math.max(Number(FAULT_QUEUE_ENV.QUEUE_RECONNECT_GRACE_MS), Number(offline))), ...overrides };
}

export const FAULT_TRANSCRIPT_ENV = { TRANSCRIPT_ACK_WAIT_MS: '2000' } as const;
/** The workspace is that of the tasks enqueued here: a daemon refuses any other's. */
export const FAULT_DAEMON_ENV = { DAEMON_HEARTBEAT_INTERVAL_MS: '500', DAEMON_WORKSPACE_ID: 'workspace-faults' } as const;

export interface FaultSystem {
  readonly system: SystemProcesses;
  /** Where the test reads Postgres: straight to the server, even when the services go through a proxy. */
  readonly observerDatabaseUrl: string;
  readonly runtimeId: string;
  /** The daemon process running now, if any. */
  daemon(): ServiceChild | undefined;
  /**
   * Starts the daemon (again): same DAEMON_ID, same SWITCHYARD_HOME, so its outbox carries over; `env`
   * over the defaults. With another `daemonId`, a further daemon with a home of its own.
   */
  startDaemon(env?: Readonly<Record<string, string>>, options?: { readonly daemonId?: string }): Promise<ServiceChild>;
  /** A quick task running the script (on `daemonId`'s runtime, default the system's daemon); `queuedTtlMs` makes it expire if not claimed in time. */
  enqueue(script: SteadyScript, options?: { readonly queuedTtlMs?: number; readonly daemonId?: string }): Promise<string>;
  /** Cancels the task as a user would (through the queue's command); resolves once the queue took it. */
  cancel(taskId: string): Promise<void>;
  tasks(): Promise<TaskRow[]>;
  /** Polls until `task_message` holds at least this many rows and runs are in flight: a moment mid-run. */
  waitForMidRun(rows: number): Promise<{ readonly rows: number; readonly running: number }>;
  /** Polls until every task (retries included) is terminal; returns the rows. */
  waitForAllTerminal(timeoutMs: number): Promise<TaskRow[]>;
  /** Polls until the table holds every row-producing message of the stream; returns the audit and how long it took. */
  waitForProjection(timeoutMs: number): Promise<{ readonly audit: TimelineAudit; readonly waitedMs: number }>;
  /**
   * Judges the tasks (all, or `only` these and their retries) against the stream: `events` is what
   * each run's script emits, `cancelled` the tasks the scenario cancelled.
   */
  judge(options: {
    readonly events: number;
    readonly allowedFailureReasons: readonly TaskFailureReason[];
    readonly cancelled?: readonly string[];
    readonly only?: readonly string[];
  }): Promise<TaskTruthReport>;
  /** Agent processes of these tasks still alive (they must exit with their daemon). */
  agentProcesses(taskIds: readonly string[]): number[];
  stop(): Promise<void>;
}

export async function startFaultSystem(options: {
  readonly daemonId: string;
  readonly natsUrl?: string;
  /** The daemon's NATS (e.g. through a proxy a test cuts); the services keep `natsUrl`. */
  readonly daemonNatsUrl?: string;
  /** The services' database (e.g. behind a proxy); the test reads `observerDatabaseUrl`. */
  readonly databaseUrl?: string;
  readonly observerDatabaseUrl?: string;
  readonly services?: readonly SystemService[];
  /** Over FAULT_QUEUE_ENV, e.g. production lease and offline windows for faults that spare the daemon. */
  readonly queueEnv?: Readonly<Record<string, string>>;
}): Promise<FaultSystem> {
  const bin: SteadyAgentBin = await installSteadyClaude();
  let system: SystemProcesses;
  try {
    system = await startSystemProcesses({
      services: options.services ?? ['queue', 'session-resume', 'transcript'],
      ...(options.natsUrl ? { natsUrl: options.natsUrl } : {}),
      ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
      serviceEnv: { queue: faultQueueEnv(options.queueEnv), transcript: FAULT_TRANSCRIPT_ENV },
    });
  } catch (error) {
    await bin.remove();
    throw error;
  }
  const observerDatabaseUrl = options.observerDatabaseUrl ?? system.databaseUrl;
  let daemon: ServiceChild | undefined;
  const otherDaemons = new Map<string, { child: ServiceChild; home: string }>();
  const tasks = (): Promise<TaskRow[]> =>
    queryRows<TaskRow>(observerDatabaseUrl, 'select task_id, status, failure_reason, retry_of_task_id, attempt, max_attempts from agent_task_queue order by enqueued_at');
  const poll = async <T>(description: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const audit = (): Promise<TimelineAudit> => auditTimeline({ connection: system.connection, databaseUrl: observerDatabaseUrl });

  return {
    system,
    observerDatabaseUrl,
    runtimeId: `${options.daemonId}-claude-code`,
    daemon: () => daemon,
    async startDaemon(env = {}, { daemonId = options.daemonId } = {}) {
      const common = { ...FAULT_DAEMON_ENV, DAEMON_PATH: `${bin.directory}:/usr/bin:/bin`, ...(options.daemonNatsUrl ? { NATS_URL: options.daemonNatsUrl } : {}) };
      if (daemonId === options.daemonId) {
        daemon = await system.startDaemon({ daemonId, env: { ...common, ...env } });
        return daemon;
      }
      // Two daemons never share a home: each has its own outbox, work dirs and identity files.
      const home = otherDaemons.get(daemonId)?.home ?? (await mkdtemp(path.join(tmpdir(), 'switchyard-faults-daemon-')));
      const child = await system.startDaemon({ daemonId, env: { ...common, SWITCHYARD_HOME: home, ...env } });
      otherDaemons.set(daemonId, { child, home });
      return child;
    },
    async enqueue(script, enqueueOptions = {}) {
      const daemonId = enqueueOptions.daemonId ?? options.daemonId;
      const expiresAt = enqueueOptions.queuedTtlMs === undefined ? null : new Date(Date.now() + enqueueOptions.queuedTtlMs).toISOString();
      const payload: CommandPayloadOf<'task.enqueue'> = {
        workspaceId: 'workspace-faults',
        agentId: 'agent-steady',
        agent: sampleAgentSnapshot({ maxConcurrentTasks: 5 }),
        runtimeId: `${daemonId}-claude-code`,
        source: { kind: 'quick_create' },
        prompt: steadyPrompt(script),
        priority: 0,
        forceFreshSession: false,
        maxAttempts: null,
        fireAt: null,
        expiresAt,
        ...(enqueueOptions.queuedTtlMs === undefined ? {} : { queuedTtlMs: enqueueOptions.queuedTtlMs }),
      };
      return (await sendUntilAnswered(system, 'task.enqueue', payload)).taskId;
    },
    async cancel(taskId) {
      await sendUntilAnswered(system, 'task.cancel', { taskId, requestedBy: { kind: 'user', id: 'fault-suite' }, reason: 'the scenario cancels it' });
    },
    tasks,
    waitForMidRun: (rows) =>
      poll(`${rows} rows and a run in flight`, 90_000, async () => {
        const [counted] = await queryRows<{ count: string }>(observerDatabaseUrl, 'select count(*) from task_message');
        const running = (await tasks()).filter((task) => task.status === 'running').length;
        return Number(counted!.count) >= rows && running > 0 ? { rows: Number(counted!.count), running } : undefined;
      }),
    waitForAllTerminal: (timeoutMs) =>
      poll('every task to end', timeoutMs, async () => {
        const rows = await tasks();
        return rows.every((row) => ['completed', 'failed', 'cancelled'].includes(row.status)) ? rows : undefined;
      }),
    async waitForProjection(timeoutMs) {
      const startedAt = performance.now();
      let last: TimelineAudit | undefined;
      try {
        const final = await poll('the projector to catch up', timeoutMs, async () => {
          last = await audit();
          return last.missing.length === 0 ? last : undefined;
        });
        return { audit: final, waitedMs: Math.round(performance.now() - startedAt) };
      } catch (error) {
        // Not caught up: hand back the disagreement itself, for the assertion to show.
        if (last) return { audit: last, waitedMs: Math.round(performance.now() - startedAt) };
        throw error;
      }
    },
    async judge({ events, allowedFailureReasons, cancelled = [], only }) {
      const judged = (await tasks()).filter((task) => !only || only.includes(task.task_id) || (task.retry_of_task_id !== null && only.includes(task.retry_of_task_id)));
      return judgeTasks({ tasks: judged, messages: await readTaskMessages(system.connection), events, allowedFailureReasons, cancelled });
    },
    agentProcesses: (taskIds) => taskIds.flatMap((taskId) => processesWithEnvironment(`SWITCHYARD_TASK_ID=${taskId}`)),
    async stop() {
      try {
        await daemon?.stop();
        for (const other of otherDaemons.values()) await other.child.stop();
        await system.stop();
        for (const other of otherDaemons.values()) await rm(other.home, { recursive: true, force: true });
      } finally {
        await bin.remove();
      }
    },
  };
}

/** Keeps `inFlight` tasks not yet ended (retries count) while `keepGoing` holds; resolves with the ids it enqueued. */
export async function keepTasksInFlight(options: { readonly system: FaultSystem; readonly script: SteadyScript; readonly inFlight: number; readonly keepGoing: () => boolean }): Promise<string[]> {
  const ids: string[] = [];
  while (options.keepGoing()) {
    const open = (await options.system.tasks()).filter((task) => !['completed', 'failed', 'cancelled'].includes(task.status)).length;
    for (let index = open; index < options.inFlight; index += 1) ids.push(await options.system.enqueue(options.script));
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return ids;
}

/** A service command, sent again with the same request id until the queue answers, as any client does during a fault. */
async function sendUntilAnswered<TName extends 'task.enqueue' | 'task.cancel'>(system: SystemProcesses, command: TName, payload: CommandPayloadOf<TName>): Promise<CommandResultOf<TName>> {
  const envelope = createCommand({ command, payload }) as { readonly requestId: string };
  const subject = (subjects.command as (name: string) => string)(command);
  const deadline = Date.now() + 90_000;
  for (;;) {
    const reply = await requestReply<unknown, CommandResultOf<TName>>(system.connection, { subject, data: envelope, requestId: envelope.requestId, timeoutMs: 10_000 }).catch(
      (error: unknown) => {
        if (!isRetryableError(error) || Date.now() > deadline) throw error;
        return undefined;
      },
    );
    if (reply?.ok) return reply.result;
    if (reply && (!reply.error.retryable || Date.now() > deadline)) throw new Error(`${command} refused: ${reply.error.message}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
