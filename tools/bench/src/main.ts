import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { connectMessaging, inboxPrefixOf, mintUserCredentials, natsServerVersion } from '@switchyard/messaging';
import { deleteNamespaceStreams, streamPlacement } from '@switchyard/messaging/testing';
import { startClusterBenchSystem, type ClusterBenchSystem } from './bench-cluster';
import { provideBenchInfrastructure, serverVersions } from './bench-infrastructure';
import { selectSections, type BenchSection } from './bench-sections';
import { createBenchSystem, type BenchSystem } from './bench-system';
import { measureCancel, cancelRows } from './cancel.bench';
import { claimDepthRows, measureClaimDepths } from './claim-depth.bench';
import { claimRows, measureClaims, type ClaimFigures } from './claim.bench';
import { createCleanupStack } from './cleanup-stack';
import { daemonMemoryRows, measureDaemonMemory } from './daemon-memory.bench';
import { dispatchRows, measureDispatch } from './dispatch.bench';
import { liveRows, measureLiveLatency } from './live-latency.bench';
import { measureNatsRoundTrip, type RoundTripFigures } from './nats-request-reply.bench';
import { measurePeerQueue, peerQueueRows } from './peer-queue.bench';
import { measureReplay, replayRows } from './replay.bench';
import { measureRepositoryPrepare, repositoryPrepareRows } from './repository-prepare.bench';
import { format, renderTable, type TableRow } from './report-table';
import { elapsedMs } from './statistics';
import { measureTimelineIngest, timelineRows } from './timeline-ingest.bench';
import { measureScaling, scalingRows } from './scaling.bench';

interface SectionOutcome {
  readonly rows: TableRow[];
  /** Keys of `results.json`. */
  readonly figures: Record<string, unknown>;
}

/** What a section may start beside the run's system: the same on a three-server cluster (started on first need). */
interface BenchSystems {
  cluster(): Promise<BenchSystem>;
  /** Takes the cluster down, so the sections after the one that used it have the cores to themselves. */
  stopCluster(): Promise<void>;
}

/** The claims figures of this run, measured once for the `claims` section and the `peer` section beside it. */
let claimsOfRun: Promise<{ readonly roundTrip: RoundTripFigures; readonly claims: ClaimFigures }> | undefined;
function measureClaimsOnce(system: BenchSystem): Promise<{ readonly roundTrip: RoundTripFigures; readonly claims: ClaimFigures }> {
  claimsOfRun ??= (async () => {
    await system.service('queue');
    const roundTrip = await measureNatsRoundTrip(system.connection, { samples: 2_000, concurrency: 8, payloadBytes: 512 });
    const claims = await measureClaims(system.connection, { latencySamples: 300, backlog: 2_000, claimers: 8, batch: 10 });
    return { roundTrip, claims };
  })();
  return claimsOfRun;
}

/** Each section, on the system it starts lazily; sizes chosen to keep a full run well under 10 minutes on 2 cores. */
const SECTION_RUNNERS: Record<BenchSection, (system: BenchSystem, systems: BenchSystems) => Promise<SectionOutcome>> = {
  async claims(system) {
    const { roundTrip, claims } = await measureClaimsOnce(system);
    return { rows: claimRows(roundTrip, claims), figures: { roundTrip, claims } };
  },
  // The same ingest on the run's NATS and on a three-server cluster, where every publish waits for a quorum.
  async timeline(system, systems) {
    await system.service('transcript');
    const timeline = await measureTimelineIngest({ connection: system.connection, databaseUrl: system.databaseUrl, tasks: 100, messagesPerTask: 100 });
    const replicas = (await streamPlacement(system.connection, 'TASK_EVENTS')).configuredReplicas;
    const timelineR3 = await (async () => {
      try {
        const cluster = await systems.cluster();
        await cluster.service('transcript');
        return await measureTimelineIngest({ connection: cluster.connection, databaseUrl: cluster.databaseUrl, tasks: 100, messagesPerTask: 100, taskPrefix: 'bench-r3-', rawReplicas: 3 });
      } finally {
        await systems.stopCluster();
      }
    })();
    return { rows: [...timelineRows(timeline, `R${replicas}`), ...timelineRows(timelineR3, 'R3 cluster')], figures: { timeline, timelineR3 } };
  },
  // Agent stdout line → WebSocket: one task emits 5,000 lines at 1,000/s.
  async live(system) {
    const gateway = await system.gateway();
    const daemon = await system.sharedDaemon();
    const live = await measureLiveLatency({ gateway, runtimeId: daemon.runtimeId, connection: system.connection, events: 5_000, ratePerSecond: 1_000 });
    return { rows: liveRows(live), figures: { live } };
  },
  async dispatch(system) {
    const dispatch = await measureDispatch({ system, tasks: 100, warmup: 10 });
    return { rows: dispatchRows(dispatch), figures: { dispatch } };
  },
  async cancel(system) {
    const cancel = await measureCancel({ system, tasks: 50, warmup: 5 });
    return { rows: cancelRows(cancel), figures: { cancel } };
  },
  async replay(system) {
    const replay = await measureReplay({ system, seededMessages: 50_000 });
    return { rows: replayRows(replay), figures: { replay } };
  },
  async daemon(system) {
    const daemon = await measureDaemonMemory({ system, tasks: 50, eventsPerSecond: 200, emitSeconds: 20 });
    return { rows: daemonMemoryRows(daemon), figures: { daemon } };
  },
  // Ingest over 10 / 100 / 1,000 tasks, live delivery at 100 / 1,000 / 5,000 lines/s.
  async scaling(system) {
    const scaling = await measureScaling(system);
    return { rows: scalingRows(scaling), figures: { scaling } };
  },
  // A task's worktree of a 10,000-file repository, cold and warm cache; needs no service.
  async repositories() {
    const repositories = await measureRepositoryPrepare({ files: 10_000, samples: 7 });
    return { rows: repositoryPrepareRows(repositories), figures: { repositories } };
  },
  // pg-boss, tuned as its docs advise, on the same Postgres beside this run's claims; then enqueue -> claimed behind deep queues.
  async peer(system) {
    const { claims } = await measureClaimsOnce(system);
    const peer = await measurePeerQueue({ databaseUrl: system.databaseUrl, latencySamples: 300, backlog: 5_000, workers: 8, batch: 10 });
    const claimDepths = await measureClaimDepths({ connection: system.connection, databaseUrl: system.databaseUrl, depths: [100, 10_000, 100_000], samples: 100 });
    return { rows: [...peerQueueRows(peer, claims), ...claimDepthRows(claimDepths)], figures: { peer, claimDepths } };
  },
};

/**
 * `npm run bench [-- --only=claims,dispatch]`: figures beside a baseline measured in the same run;
 * never pass/fail. Everything it starts (processes, streams, database, temporary directories) is
 * undone at the end, on failure and on Ctrl-C too.
 */
async function main(): Promise<void> {
  const sections = selectSections(process.argv.slice(2));
  // The bench's namespace must not reserve production stream sizes on a shared server.
  process.env['SWITCHYARD_STREAM_MAX_BYTES_CAP'] ??= String(256 * 1024 * 1024);
  const cleanup = createCleanupStack();
  // One unwinding, whoever asks first (Ctrl-C, or the run ending): a section failing because
  // Ctrl-C stopped its services must not exit the process before the cleanup is done.
  let unwinding: Promise<void> | undefined;
  const unwind = (): Promise<void> =>
    (unwinding ??= cleanup.unwind().then((failures) => {
      for (const failure of failures) process.stderr.write(`bench cleanup: ${failure.label} failed: ${String(failure.error)}\n`);
    }));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`bench: ${signal}, cleaning up\n`);
      void unwind().finally(() => process.exit(130));
    });
  }
  try {
    const infrastructure = await provideBenchInfrastructure();
    cleanup.defer('stop the bench servers / drop the bench database', () => infrastructure.stop());
    const namespace = `bench${randomBytes(4).toString('hex')}`;
    const tooling = { kind: 'tooling', name: 'bench' } as const;
    const { creds } = await mintUserCredentials(infrastructure.authority, { identity: tooling, namespace });
    const connection = await connectMessaging({ url: infrastructure.natsUrl, name: 'bench', namespace, credentials: creds, inboxPrefix: inboxPrefixOf(tooling) });
    cleanup.defer('close the bench connection', () => connection.close());
    cleanup.defer(`delete the streams of namespace ${namespace}`, async () => {
      await deleteNamespaceStreams(connection);
    });
    const system = createBenchSystem({ natsUrl: infrastructure.natsUrl, authority: infrastructure.authority, databaseUrl: infrastructure.databaseUrl, namespace, connection, cleanup });
    let cluster: Promise<ClusterBenchSystem> | undefined;
    const systems: BenchSystems = {
      cluster: async () => (await (cluster ??= startClusterBenchSystem({ authority: infrastructure.authority, databaseUrl: infrastructure.databaseUrl, cleanup }))).system,
      stopCluster: async () => {
        const started = cluster;
        cluster = undefined;
        if (started) await (await started).stop();
      },
    };
    const machine = {
      cores: cpus().length,
      cpu: cpus()[0]?.model ?? 'unknown',
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      natsServer: natsServerVersion(connection) ?? 'unknown',
      ...(await serverVersions(infrastructure.databaseUrl)),
      nats: infrastructure.natsDescription,
      database: infrastructure.databaseDescription,
      // The machine may be shared: its load says how much the figures can be trusted.
      loadAverageAtStart: loadavg().map((load) => Number(load.toFixed(2))),
    };

    const rows: TableRow[] = [];
    const figures: Record<string, unknown> = {};
    const sectionSeconds: Partial<Record<BenchSection, number>> = {};
    const runStart = process.hrtime.bigint();
    for (const section of sections) {
      const start = process.hrtime.bigint();
      process.stderr.write(`bench: ${section}...\n`);
      const outcome = await SECTION_RUNNERS[section](system, systems);
      sectionSeconds[section] = elapsedMs(start) / 1000;
      rows.push(...outcome.rows);
      Object.assign(figures, outcome.figures);
    }
    const totalSeconds = elapsedMs(runStart) / 1000;
    const loadAverageAtEnd = loadavg().map((load) => Number(load.toFixed(2)));

    process.stdout.write(`\nSwitchyard bench: ${new Date().toISOString()}\n`);
    process.stdout.write(`machine: ${JSON.stringify({ ...machine, loadAverageAtEnd })}\n\n`);
    process.stdout.write(`${renderTable(rows)}\n\n`);
    const timings = Object.entries(sectionSeconds).map(([section, seconds]) => `${section} ${format(seconds, 0)} s`);
    process.stdout.write(`sections: ${timings.join(', ')}; ${format(totalSeconds, 0)} s in all (plus setup and cleanup)\n`);

    const resultsDirectory = path.resolve('.switchyard', 'bench');
    mkdirSync(resultsDirectory, { recursive: true });
    const file = path.join(resultsDirectory, 'results.json');
    writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), machine: { ...machine, loadAverageAtEnd }, sections, sectionSeconds, ...figures }, null, 2)}\n`);
    process.stdout.write(`results: ${file}\n`);
  } finally {
    await unwind();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
