import { STREAM_CATALOG, subjects } from '@switchyard/contracts';
import { provisionStreams, type MessagingConnection } from '@switchyard/messaging';
import { benchmarkNatsClients } from '@switchyard/messaging/testing';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { workspaceRoot } from '@switchyard/testing';
import type { BenchSystem } from './bench-system';
import { fakePrompt } from './fake-agent/fake-prompt';
import { SPAWN_LOG_VARIABLE, START_GATE_VARIABLE } from './fake-agent/spawn-log';
import { watchSpawnLog } from './fake-agent/spawn-log.watcher';
import type { GatewayClient } from './gateway.client';
import {
  CLOCK_TICKS_PER_SECOND,
  descendantsOf,
  identify,
  isAlive,
  readProcessStat,
  readResidentKiB,
  readSchedulerTimes,
  waitUntilGone,
  type ProcessIdentity,
} from './process-table';
import { format, mebibytes, type TableRow } from './report-table';
import type { RawPublishFigures } from './raw-publish.child';
import type { ServiceProcess } from './service-process';
import { summarizeLatencies, summarizeSamples, wallClockMs, type LatencySummary, type SampleSummary } from './statistics';

export interface DaemonMemoryFigures {
  readonly tasks: number;
  readonly eventsPerTaskPerSecond: number;
  readonly emitSeconds: number;
  readonly offeredEventsPerSecond: number;
  readonly sampleIntervalMs: number;
  /** The daemon's VmRSS with its runtime registered and nothing to run, in KiB, and its CPU then (cores). */
  readonly idle: { readonly daemonKiB: SampleSummary; readonly daemonCores: number };
  /** The burst: every task created at once → each fake agent's process began (seconds after the POSTs). */
  readonly burstSpawnSeconds: LatencySummary;
  /**
   * From the burst to the end of the window: the daemon's VmRSS, its descendants' summed VmRSS (the
   * fake agents) and the most descendants there were. CPU (cores) over the emitting window only.
   */
  readonly load: {
    readonly daemonKiB: SampleSummary;
    readonly childrenKiB: SampleSummary;
    readonly peakChildren: number;
    readonly daemonCores: number;
    /** CPU of the fake agents over the window, summed (cores). */
    readonly childrenCores: number;
    /**
     * Share of the window the daemon's main (JavaScript) thread was runnable but waiting for a CPU
     * (`/proc/<pid>/schedstat`): high means the machine, not the daemon, set the pace.
     */
    readonly daemonWaitingForCpu: number;
  };
  /** Every agent emitting together (a start gate), plus a short drain. */
  readonly windowSeconds: number;
  /** Task states at the end of the window (the rest are cancelled then, not waited for). */
  readonly statesAtWindowEnd: Record<string, number>;
  /** Timeline lines the daemon took from the agents into its outbox by the end of the window. */
  readonly outboxLines: number;
  /**
   * `task.message` events of the load tasks stored in TASK_EVENTS from the gate's opening to the
   * end of the window (each agent's first message, sent before the gate, is not counted), and the
   * seconds from the opening to the last one stored.
   */
  readonly jetStream: { readonly events: number; readonly offered: number; readonly seconds: number; readonly eventsPerSecond: number };
  /** The baseline, same run: a bare Node process publishing the same payloads to JetStream (nats.js async publish). */
  readonly rawPublish: RawPublishFigures & { readonly eventsPerCpuSecond: number };
}

const SAMPLE_INTERVAL_MS = 250;
const IDLE_SECONDS = 5;
/** Sampling goes on this long after the agents should have finished emitting. */
const DRAIN_SECONDS = 5;
/** Events the raw publish baseline sends. */
const RAW_PUBLISH_EVENTS = 20_000;
const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * One daemon of its own runs `tasks` fake agents at once, on the full system. The tasks are
 * created together; once every agent has started, a start gate lets all of them emit
 * `eventsPerSecond` for `emitSeconds` at the same time. Meanwhile the daemon's memory (and its
 * children's, apart) is sampled from /proc, and the timeline events it got into JetStream are
 * counted per subject on the stream. A daemon that cannot keep up is not waited for: what still
 * runs at the end of the window is cancelled.
 */
export async function measureDaemonMemory(options: {
  readonly system: BenchSystem;
  readonly tasks: number;
  readonly eventsPerSecond: number;
  readonly emitSeconds: number;
}): Promise<DaemonMemoryFigures> {
  const { system } = options;
  const gateway = await system.gateway();
  const rawPublish = await measureRawPublish(system, RAW_PUBLISH_EVENTS);
  const daemon = await system.startDaemon({ daemonId: 'bench-load-daemon', maxSlots: options.tasks + 10 });
  const daemonPid = daemon.process.pid;
  const directory = system.temporaryDirectory('daemon-load');
  const gate = path.join(directory, 'start-gate');
  const spawnLog = watchSpawnLog(path.join(directory, 'spawns.jsonl'));
  const agentId = await gateway.createAgent({
    name: `bench-load-${Date.now()}`,
    runtimeId: daemon.runtimeId,
    maxConcurrentTasks: options.tasks,
    env: { [SPAWN_LOG_VARIABLE]: spawnLog.file, [START_GATE_VARIABLE]: gate },
  });

  await sleep(2_000);
  const idle = await sampleIdle(daemonPid);
  const sampler = startLoadSampler(daemonPid);
  const taskIds = new Set<string>();
  const counter = startJetStreamCounter(system.connection, taskIds);
  try {
    const burst = await startBurst({ gateway, agentId, spawnLog, taskIds, sampler, tasks: options.tasks, eventsPerSecond: options.eventsPerSecond, emitSeconds: options.emitSeconds });
    writeFileSync(gate, '');
    counter.restart();
    const window = await runEmitWindow({ daemonPid, agentPids: burst.spawned.map((record) => record.pid), counter, emitSeconds: options.emitSeconds });
    sampler.stop();
    const arrival = await counter.stop();
    const outboxLines = countOutboxLines(daemon.home, taskIds);
    const statesAtWindowEnd = await taskStates(gateway.call, agentId);
    await windDown({ system, taskIds: [...taskIds], daemon: daemon.process, agents: [...sampler.agents.values()] });
    return {
      tasks: options.tasks,
      eventsPerTaskPerSecond: options.eventsPerSecond,
      emitSeconds: options.emitSeconds,
      offeredEventsPerSecond: options.eventsPerSecond * options.tasks,
      sampleIntervalMs: SAMPLE_INTERVAL_MS,
      idle,
      burstSpawnSeconds: burst.spawnSeconds,
      load: {
        daemonKiB: summarizeSamples(sampler.daemonSamples),
        childrenKiB: summarizeSamples(sampler.childrenSamples),
        peakChildren: sampler.peakChildren(),
        daemonCores: window.daemonCores,
        childrenCores: window.childrenCores,
        daemonWaitingForCpu: window.daemonWaitingForCpu,
      },
      windowSeconds: window.seconds,
      statesAtWindowEnd,
      outboxLines,
      jetStream: {
        events: arrival.events,
        offered: options.eventsPerSecond * options.emitSeconds * options.tasks,
        seconds: arrival.seconds,
        eventsPerSecond: arrival.seconds > 0 ? arrival.events / arrival.seconds : 0,
      },
      rawPublish,
    };
  } finally {
    sampler.stop();
    spawnLog.close();
    await counter.stop().catch(() => undefined);
  }
}

/**
 * The baseline: `raw-publish.child.js` in a Node process of its own, on a stream like TASK_EVENTS
 * (file storage, one replica here), removed afterwards. Its events per CPU-second are what JetStream
 * async publish of these payloads costs a client with nothing else to do.
 */
async function measureRawPublish(system: BenchSystem, events: number): Promise<DaemonMemoryFigures['rawPublish']> {
  const stream = 'BENCH_RAW_DAEMON_PUBLISH';
  const { storage, maxMessageSize } = STREAM_CATALOG.TASK_EVENTS;
  await provisionStreams(system.connection, [{ name: stream, subjects: ['bench.rawpublish.>'], storage, maxMessageSize, maxBytes: 256 * 1024 * 1024, replicas: 1 }]);
  try {
    const env = { ...(await system.bareProcessEnv('bench-raw-publish')), RAW_PUBLISH_SUBJECT_PREFIX: 'bench.rawpublish', RAW_PUBLISH_EVENTS: String(events) };
    const child = path.join(workspaceRoot(), 'dist/tools/bench/src/raw-publish.child.js');
    const { stdout } = await promisify(execFile)(process.execPath, [child], { env, timeout: 180_000 });
    const figures = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as RawPublishFigures;
    process.stderr.write(`bench: daemon: raw publish baseline, ${figures.events} events in ${format(figures.wallSeconds, 1)} s, ${format(figures.cpuSeconds, 2)} CPU-s\n`);
    return { ...figures, eventsPerCpuSecond: figures.events / figures.cpuSeconds };
  } finally {
    await benchmarkNatsClients(system.connection).manager.streams.delete(system.connection.namespace.stream(stream));
  }
}

/** The daemon's memory and CPU with no task, before the burst. */
async function sampleIdle(daemonPid: number): Promise<DaemonMemoryFigures['idle']> {
  const idle: number[] = [];
  const idleCpu = startCpuClock(daemonPid);
  for (let sample = 0; sample < (IDLE_SECONDS * 1_000) / SAMPLE_INTERVAL_MS; sample += 1) {
    idle.push(residentOrFail(daemonPid));
    await sleep(SAMPLE_INTERVAL_MS);
  }
  return { daemonKiB: summarizeSamples(idle), daemonCores: idleCpu.cores() };
}

/** Samples the daemon's memory and its children's (apart) every interval, and learns who the agents are. */
function startLoadSampler(daemonPid: number) {
  const daemonSamples: number[] = [];
  const childrenSamples: number[] = [];
  const agents = new Map<number, ProcessIdentity>();
  let peakChildren = 0;
  const remember = (pid: number): void => {
    const identity = agents.get(pid) ?? identify(pid);
    if (identity) agents.set(pid, identity);
  };
  const timer = setInterval(() => {
    const rss = readResidentKiB(daemonPid);
    if (rss !== undefined) daemonSamples.push(rss);
    const children = descendantsOf(daemonPid);
    for (const pid of children) remember(pid);
    childrenSamples.push(children.reduce((total, pid) => total + (readResidentKiB(pid) ?? 0), 0));
    peakChildren = Math.max(peakChildren, children.length);
  }, SAMPLE_INTERVAL_MS);
  return { daemonSamples, childrenSamples, agents, remember, peakChildren: (): number => peakChildren, stop: (): void => clearInterval(timer) };
}

/** Creates every task at once and waits until each agent has started (they wait at the gate). */
async function startBurst(options: {
  readonly gateway: Awaited<ReturnType<BenchSystem['gateway']>>;
  readonly agentId: string;
  readonly spawnLog: ReturnType<typeof watchSpawnLog>;
  readonly taskIds: Set<string>;
  readonly sampler: ReturnType<typeof startLoadSampler>;
  readonly tasks: number;
  readonly eventsPerSecond: number;
  readonly emitSeconds: number;
}) {
  const prompt = fakePrompt({ events: options.eventsPerSecond * options.emitSeconds, rate: options.eventsPerSecond });
  const burstAt = wallClockMs();
  const created = await Promise.all(Array.from({ length: options.tasks }, () => options.gateway.createTask({ agentId: options.agentId, prompt })));
  for (const task of created) options.taskIds.add(task.taskId);
  const spawned = await Promise.all(created.map((task) => options.spawnLog.waitFor({ event: 'spawned', taskId: task.taskId, timeoutMs: 180_000 })));
  const spawnSeconds = summarizeLatencies(spawned.map((record) => (record.startedAt - burstAt) / 1_000));
  for (const record of spawned) options.sampler.remember(record.pid);
  process.stderr.write(`bench: daemon: ${options.tasks} agents started ${format(spawnSeconds.max, 1)} s after the burst; emitting\n`);
  return { spawned, spawnSeconds };
}

/** The emit window and its drain: CPU of the daemon and of the agents, and the daemon's wait for a core. */
async function runEmitWindow(options: { readonly daemonPid: number; readonly agentPids: readonly number[]; readonly counter: { events(): number }; readonly emitSeconds: number }) {
  const windowStart = performance.now();
  const loadCpu = startCpuClock(options.daemonPid);
  const childrenCpu = startCpuClock(...options.agentPids);
  const waitingAtStart = readSchedulerTimes(options.daemonPid)?.waitingNs ?? 0;
  const total = options.emitSeconds + DRAIN_SECONDS;
  for (let second = 0; second < total; second += 5) {
    await sleep(Math.min(5, total - second) * 1_000);
    process.stderr.write(`bench: daemon: ${Math.min(second + 5, total)} s, ${options.counter.events()} events in JetStream\n`);
  }
  const daemonCores = loadCpu.cores();
  const childrenCores = childrenCpu.cores();
  const daemonWaitingForCpu = ((readSchedulerTimes(options.daemonPid)?.waitingNs ?? waitingAtStart) - waitingAtStart) / 1e6 / (performance.now() - windowStart);
  return { daemonCores, childrenCores, daemonWaitingForCpu, seconds: (performance.now() - windowStart) / 1_000 };
}

/** CPU time the processes used from now on, as cores (1.0 = one core busy all along); a process that ends stops counting. */
function startCpuClock(...pids: number[]): { cores(): number } {
  const ticksAtStart = new Map(pids.map((pid) => [pid, readProcessStat(pid)?.cpuTicks ?? 0]));
  const startedAt = performance.now();
  return {
    cores() {
      let ticks = 0;
      for (const [pid, atStart] of ticksAtStart) ticks += (readProcessStat(pid)?.cpuTicks ?? atStart) - atStart;
      return ticks / CLOCK_TICKS_PER_SECOND / ((performance.now() - startedAt) / 1_000);
    },
  };
}

function residentOrFail(pid: number): number {
  const rss = readResidentKiB(pid);
  if (rss === undefined) throw new Error(`the daemon (pid ${pid}) is gone`);
  return rss;
}

/** Lines in the daemon's per-task outbox files (`<home>/outbox/<taskId>.jsonl`); a drained task's file is gone and counts 0. */
function countOutboxLines(home: string, taskIds: ReadonlySet<string>): number {
  let lines = 0;
  for (const taskId of taskIds) {
    try {
      const content = readFileSync(path.join(home, 'outbox', `${taskId}.jsonl`));
      for (let index = content.indexOf(10); index !== -1; index = content.indexOf(10, index + 1)) lines += 1;
    } catch {
      // Drained and removed, or never written.
    }
  }
  return lines;
}

async function taskStates(call: GatewayClient['call'], agentId: string): Promise<Record<string, number>> {
  const { tasks } = await call<{ tasks: Array<{ status: string }> }>('GET', `/api/tasks?agentId=${agentId}&limit=200`);
  const states: Record<string, number> = {};
  for (const task of tasks) states[task.status] = (states[task.status] ?? 0) + 1;
  return states;
}

/**
 * Ends the load now rather than waiting out the backlog: cancel what runs, stop this daemon
 * (whose shutdown publishes what its outbox still holds, for a while), and kill by pid any fake
 * agent it left behind.
 */
async function windDown(options: { readonly system: BenchSystem; readonly taskIds: readonly string[]; readonly daemon: ServiceProcess; readonly agents: readonly ProcessIdentity[] }): Promise<void> {
  const gateway = await options.system.gateway();
  // A task that already ended answers 409; that is fine here.
  await Promise.all(options.taskIds.map((taskId) => gateway.call('POST', `/api/tasks/${taskId}/cancel`, { reason: 'bench load window over' }).catch(() => undefined)));
  await waitUntilGone({ processes: options.agents, since: process.hrtime.bigint(), pollIntervalMs: 50, timeoutMs: 15_000 }).catch(() => undefined);
  await options.daemon.stop({ graceMs: 10_000 });
  for (const agent of options.agents.filter(isAlive)) {
    try {
      process.kill(agent.pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
}

interface JetStreamCounter {
  /** Stored so far. */
  events(): number;
  /** From now on, count only what arrives after this moment (the window opens). */
  restart(): void;
  /** Resolves once `expected` events are stored or the count has not grown for `quietMs`. */
  settled(expected: number, quietMs: number): Promise<void>;
  /** Stops counting; the events stored since `restart` and the seconds from the restart to the last one stored. */
  stop(): Promise<{ readonly events: number; readonly seconds: number }>;
}

/**
 * Counts the stored `task.message` events of `taskIds` (the stream's per-subject counts) every
 * `SAMPLE_INTERVAL_MS`, keeping when the count first moved and when it last grew.
 */
function startJetStreamCounter(connection: MessagingConnection, taskIds: ReadonlySet<string>): JetStreamCounter {
  const stream = connection.namespace.stream(STREAM_CATALOG.TASK_EVENTS.name);
  const filter = connection.namespace.subject(subjects.eventTypeFilter('task.message'));
  let events = 0;
  let eventsAtRestart = 0;
  let restartedAt = performance.now();
  let lastGrowthAt: number | undefined;
  let stopped = false;
  const count = async (): Promise<void> => {
    const info = await benchmarkNatsClients(connection).manager.streams.info(stream, { subjects_filter: filter });
    let total = 0;
    for (const [subject, messages] of Object.entries(info.state.subjects ?? {})) {
      if (taskIds.has(subjects.aggregateIdOf(subject))) total += messages;
    }
    const now = performance.now();
    if (total > events) {
      lastGrowthAt = now;
      events = total;
    }
  };
  const loop = (async (): Promise<unknown> => {
    try {
      while (!stopped) {
        await count();
        await sleep(SAMPLE_INTERVAL_MS);
      }
      return undefined;
    } catch (error) {
      return error;
    }
  })();
  return {
    events: () => events,
    restart() {
      eventsAtRestart = events;
      restartedAt = performance.now();
      lastGrowthAt = undefined;
    },
    async settled(expected, quietMs) {
      while (!stopped && events < expected && performance.now() - (lastGrowthAt ?? 0) < quietMs) await sleep(SAMPLE_INTERVAL_MS);
    },
    async stop() {
      stopped = true;
      const failure = await loop;
      if (failure !== undefined) throw new Error('counting JetStream events failed', { cause: failure });
      return { events: events - eventsAtRestart, seconds: lastGrowthAt === undefined ? 0 : (lastGrowthAt - restartedAt) / 1_000 };
    },
  };
}

export function daemonMemoryRows(figures: DaemonMemoryFigures): TableRow[] {
  const rss = (summary: SampleSummary): string => `peak ${mebibytes(summary.peak)}, mean ${mebibytes(summary.mean)}`;
  const cores = (value: number): string => `${format(value * 100, 0)}% of a core`;
  const states = Object.entries(figures.statesAtWindowEnd)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
  const ofOffered = (value: number): string => `${format((value / figures.jetStream.offered) * 100, 1)}%`;
  const burst = figures.burstSpawnSeconds;
  const daemonPerCpuSecond = figures.jetStream.eventsPerSecond / figures.load.daemonCores;
  // A starved daemon takes lines in (redacted, written to the outbox) faster than JetStream acks
  // them: its CPU went to both, so stored events alone understate what a CPU-second handled.
  const daemonCpuSeconds = figures.load.daemonCores * figures.windowSeconds;
  const outboxPerCpuSecond = figures.outboxLines / daemonCpuSeconds;
  return [
    ['daemon RSS idle (baseline)', rss(figures.idle.daemonKiB), `no task; CPU ${cores(figures.idle.daemonCores)}`, '1.00'],
    [
      `daemon RSS, ${figures.tasks} tasks x ${figures.eventsPerTaskPerSecond} events/s`,
      rss(figures.load.daemonKiB),
      `CPU ${cores(figures.load.daemonCores)}, ${format(figures.load.daemonWaitingForCpu * 100, 0)}% waiting for one`,
      `x${format(figures.load.daemonKiB.peak / figures.idle.daemonKiB.mean, 2)} peak of idle mean (${format(figures.windowSeconds, 0)} s)`,
    ],
    [
      `  its children (${figures.load.peakChildren} fake agents, summed)`,
      rss(figures.load.childrenKiB),
      `CPU ${cores(figures.load.childrenCores)}; ${states} at end`,
      'the agents, not the daemon',
    ],
    [`  burst: ${figures.tasks} tasks created at once -> spawned`, `p50 ${format(burst.p50, 1)} s, last ${format(burst.max, 1)} s`, '', ''],
    [
      'timeline events that reached JetStream',
      `${format(figures.jetStream.seconds, 1)} s gate -> last stored`,
      `${format(figures.jetStream.eventsPerSecond, 0)} events/s`,
      `${format((figures.jetStream.eventsPerSecond / figures.offeredEventsPerSecond) * 100, 1)}% of ${figures.offeredEventsPerSecond}/s offered`,
    ],
    [
      'raw JetStream async publish (bare Node)',
      `${figures.rawPublish.events} events, ${format(figures.rawPublish.cpuSeconds, 2)} CPU-s`,
      `${format(figures.rawPublish.eventsPerCpuSecond, 0)} events per CPU-second`,
      '1.00 (baseline)',
    ],
    [
      '  per CPU-second the daemon got',
      '',
      `${format(daemonPerCpuSecond, 0)} events`,
      `${format((daemonPerCpuSecond / figures.rawPublish.eventsPerCpuSecond) * 100, 1)}% of raw publish per CPU-second`,
    ],
    [
      '  taken into its outbox, per CPU-second',
      `${format(daemonCpuSeconds, 1)} CPU-s in the window`,
      `${format(outboxPerCpuSecond, 0)} lines`,
      `${format((outboxPerCpuSecond / figures.rawPublish.eventsPerCpuSecond) * 100, 1)}% of raw publish per CPU-second`,
    ],
    [
      '  stored / in daemon outbox / offered',
      '',
      `${figures.jetStream.events} / ${figures.outboxLines} / ${figures.jetStream.offered}`,
      `${ofOffered(figures.jetStream.events)} / ${ofOffered(figures.outboxLines)} of offered`,
    ],
  ];
}
