import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { connectMessaging, deleteNamespaceStreams } from '@switchyard/messaging';
import { startServiceChild } from '@switchyard/testing';
import { provideBenchInfrastructure, serverVersions } from './bench-infrastructure';
import { measureClaims, type ClaimFigures } from './claim.bench';
import { measureNatsRoundTrip, type RoundTripFigures } from './nats-request-reply.bench';
import { measureTimelineIngest, type TimelineIngestFigures } from './timeline-ingest.bench';
import { installFakeClaude } from './fake-agent/fake-agent.installer';
import { measureLiveLatency, type LiveLatencyResult } from './live-latency.bench';

const format = (value: number, digits = 2): string => value.toFixed(digits);

// `npm run bench -- --only=timeline` runs some sections; every one by default.
const BENCH_SECTIONS = ['claims', 'timeline', 'live'] as const;
const BENCH_TOKEN = `sy_bench-${randomBytes(16).toString('hex')}`;
const onlyArgument = process.argv.find((argument) => argument.startsWith('--only='));
const selectedSections = onlyArgument ? onlyArgument.slice('--only='.length).split(',') : [...BENCH_SECTIONS];
const runs = (section: (typeof BENCH_SECTIONS)[number]): boolean => selectedSections.includes(section);

/** `npm run bench`: figures beside a baseline measured in the same run; never pass/fail. */
async function main(): Promise<void> {
  // The bench's namespace must not reserve production stream sizes on a shared server.
  process.env['SWITCHYARD_STREAM_MAX_BYTES_CAP'] ??= String(256 * 1024 * 1024);
  const infrastructure = await provideBenchInfrastructure();
  const namespace = `bench${randomBytes(4).toString('hex')}`;
  const serviceEnv = { ...process.env, NATS_URL: infrastructure.natsUrl, DATABASE_URL: infrastructure.databaseUrl, SWITCHYARD_NAMESPACE: namespace, PORT: '0', LOG_LEVEL: 'info' };
  const queue = runs('claims') || runs('live') ? await startServiceChild({ entry: 'services/queue/src/main.js', env: serviceEnv, timeoutMs: 60_000 }) : undefined;
  const connection = await connectMessaging({ url: infrastructure.natsUrl, name: 'bench', namespace });
  try {
    const machine = {
      cores: cpus().length,
      cpu: cpus()[0]?.model ?? 'unknown',
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      natsServer: connection.nats.info?.version ?? 'unknown',
      ...(await serverVersions(infrastructure.databaseUrl)),
      nats: infrastructure.natsDescription,
      database: infrastructure.databaseDescription,
    };
    const rows: string[][] = [];
    let roundTrip: RoundTripFigures | undefined;
    let claims: ClaimFigures | undefined;
    if (runs('claims')) {
      roundTrip = await measureNatsRoundTrip(connection, { samples: 2_000, concurrency: 8, payloadBytes: 512 });
      claims = await measureClaims(connection, { latencySamples: 300, backlog: 2_000, claimers: 8, batch: 10 });
      rows.push(...claimRows(roundTrip, claims));
    }
    let timeline: TimelineIngestFigures | undefined;
    if (runs('timeline')) {
      const transcript = await startServiceChild({ entry: 'services/transcript/src/main.js', env: serviceEnv, timeoutMs: 60_000 });
      try {
        timeline = await measureTimelineIngest({ connection, databaseUrl: infrastructure.databaseUrl, tasks: 100, messagesPerTask: 100 });
      } finally {
        await transcript.stop();
      }
      rows.push(...timelineRows(timeline));
    }
    let live: LiveLatencyResult | undefined;
    if (runs('live')) {
      live = await measureLiveSection(serviceEnv, connection);
      rows.push(...liveRows(live));
    }
    process.stdout.write(`\nSwitchyard bench: ${new Date().toISOString()}\n`);
    process.stdout.write(`machine: ${JSON.stringify(machine)}\n\n`);
    const widths = [38, 36, 28, 30];
    const header = ['measure', 'latency', 'throughput', 'vs baseline'];
    for (const row of [header, ...rows]) process.stdout.write(`${row.map((cell, index) => cell.padEnd(widths[index]!)).join(' ')}\n`);

    const resultsDirectory = path.resolve('.switchyard', 'bench');
    mkdirSync(resultsDirectory, { recursive: true });
    const file = path.join(resultsDirectory, 'results.json');
    writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), machine, roundTrip, claims, timeline, live }, null, 2)}\n`);
    process.stdout.write(`\nresults: ${file}\n`);
  } finally {
    await deleteNamespaceStreams(connection).catch(() => undefined);
    await connection.close();
    await queue?.stop();
    await infrastructure.stop();
  }
}

/**
 * Agent stdout line → WebSocket: the transcript, gateway and a daemon whose `claude` is the fast
 * fake agent run as processes beside the queue; one task emits 5,000 lines at 1,000/s.
 */
async function measureLiveSection(serviceEnv: NodeJS.ProcessEnv, connection: Parameters<typeof measureLiveLatency>[0]['connection']): Promise<LiveLatencyResult> {
  const fakeBin = installFakeClaude();
  const started = [];
  try {
    started.push(await startServiceChild({ entry: 'services/transcript/src/main.js', env: serviceEnv, timeoutMs: 60_000 }));
    const gateway = await startServiceChild({ entry: 'services/gateway/src/main.js', env: { ...serviceEnv, GATEWAY_BOOTSTRAP_TOKEN: BENCH_TOKEN }, timeoutMs: 60_000 });
    started.push(gateway);
    started.push(
      await startServiceChild({
        entry: 'services/daemon/src/main.js',
        env: { ...serviceEnv, DAEMON_ID: 'bench-daemon', DAEMON_PATH: fakeBin, SWITCHYARD_HOME: path.join(fakeBin, 'home') },
        timeoutMs: 60_000,
      }),
    );
    return await measureLiveLatency({ gatewayUrl: gateway.url, token: BENCH_TOKEN, runtimeId: 'bench-daemon-claude-code', connection, events: 5_000, ratePerSecond: 1_000 });
  } finally {
    for (const service of started.reverse()) await service.stop();
  }
}

function liveRows(live: LiveLatencyResult): string[][] {
  const summary = (figures: LiveLatencyResult['lineToWebSocket']): string => `p50 ${format(figures.p50)}, p95 ${format(figures.p95)}, p99 ${format(figures.p99)} ms`;
  return [
    [`raw NATS pub -> sub (${live.ratePerSecond}/s, baseline)`, summary(live.natsPublishToSubscriber), `${live.events} events`, '1.00'],
    [
      `agent line -> WebSocket (${live.ratePerSecond}/s)`,
      summary(live.lineToWebSocket),
      `${live.events} events`,
      `x${format(live.lineToWebSocket.p50 / live.natsPublishToSubscriber.p50, 1)} p50 of raw NATS`,
    ],
  ];
}

function claimRows(roundTrip: RoundTripFigures, claims: ClaimFigures): string[][] {
  return [
    ['raw NATS request/reply (baseline)', `p50 ${format(roundTrip.latency.p50)} ms, p99 ${format(roundTrip.latency.p99)} ms`, `${format(roundTrip.requestsPerSecond, 0)} req/s (8 callers)`, '1.00'],
    [
      'enqueue -> claimed (nudge + claim)',
      `p50 ${format(claims.enqueueToClaimed.p50)} ms, p99 ${format(claims.enqueueToClaimed.p99)} ms`,
      '',
      `x${format(claims.enqueueToClaimed.p50 / roundTrip.latency.p50, 1)} p50 of a round trip`,
    ],
    ['claims (8 daemons, batch 10)', '', `${format(claims.claimsPerSecond, 0)} claims/s`, `${format((claims.claimsPerSecond / roundTrip.requestsPerSecond) * 100, 1)}% of req/s`],
  ];
}

function timelineRows(timeline: TimelineIngestFigures): string[][] {
  const ofJetStream = (timeline.timelineEventsPerSecond / timeline.rawJetStreamEventsPerSecond) * 100;
  const ofPostgres = (timeline.timelineEventsPerSecond / timeline.rawPostgresRowsPerSecond) * 100;
  return [
    ['raw JetStream async pub + consume', '', `${format(timeline.rawJetStreamEventsPerSecond, 0)} events/s`, '1.00 (baseline)'],
    ['raw Postgres insert (500 rows/stmt)', '', `${format(timeline.rawPostgresRowsPerSecond, 0)} rows/s`, '1.00 (baseline)'],
    [
      `timeline ingest (${timeline.tasks} tasks, ${timeline.eventBytes} B)`,
      `last row ${format(timeline.lastRowAfterLastAckMs, 0)} ms after last ack`,
      `${format(timeline.timelineEventsPerSecond, 0)} events/s`,
      `${format(ofJetStream, 1)}% of JS, ${format(ofPostgres, 1)}% of PG`,
    ],
  ];
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
