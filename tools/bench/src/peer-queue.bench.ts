import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { PgBoss } from 'pg-boss';
import type { ClaimFigures } from './claim.bench';
import { format, latencyCell, ratioCell, type TableRow } from './report-table';
import { elapsedMs, summarizeLatencies, type LatencySummary } from './statistics';

export interface PeerQueueFigures {
  readonly peer: string;
  readonly sendToHandler: LatencySummary;
  readonly jobsPerSecond: number;
  readonly jobs: number;
  readonly workers: number;
  readonly batch: number;
}

const PEER = 'pg-boss 12.38.0';

/**
 * A real `import()`: swc compiles ours to CommonJS and would turn a literal `import('pg-boss')`
 * into `require`, and pg-boss ships as ES modules only. Resolved from this file, as `require` would.
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the one way to keep import() through a CommonJS build
const importModule = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

async function loadPgBoss(): Promise<typeof PgBoss> {
  const module = (await importModule('pg-boss')) as { PgBoss: typeof PgBoss };
  return module.PgBoss;
}

/**
 * pg-boss on the bench's own Postgres (in a schema of its own, dropped afterwards), tuned as its
 * docs advise for low latency: LISTEN/NOTIFY on, a notify queue, `workers` workers fetching
 * `batch` jobs with burst while batches come back full. Send → handler one job at a time (as
 * Switchyard's enqueue → claimed), then jobs/s draining a backlog inserted before the workers start.
 */
export async function measurePeerQueue(options: {
  readonly databaseUrl: string;
  readonly latencySamples: number;
  readonly backlog: number;
  readonly workers: number;
  readonly batch: number;
}): Promise<PeerQueueFigures> {
  const PgBossClass = await loadPgBoss();
  const schema = `bench_pgboss_${randomBytes(4).toString('hex')}`;
  const boss = new PgBossClass({ connectionString: options.databaseUrl, schema, useListenNotify: true, max: options.workers + 4 });
  const errors: unknown[] = [];
  boss.on('error', (error: unknown) => errors.push(error));
  await boss.start();
  try {
    const workOptions = { localConcurrency: options.workers, batchSize: options.batch, burstWhenBatchFull: true } as const;
    const sendToHandler = await measureSendToHandler(boss, { samples: options.latencySamples, workOptions });
    const throughput = await measureBacklogDrain(boss, { backlog: options.backlog, workOptions });
    if (errors.length > 0) throw new Error(`pg-boss reported ${errors.length} error(s), the first: ${String(errors[0])}`);
    return { peer: PEER, sendToHandler, ...throughput, workers: options.workers, batch: options.batch };
  } finally {
    await boss.stop({ graceful: false, close: true });
    await dropSchema(options.databaseUrl, schema);
  }
}

type WorkOptions = { readonly localConcurrency: number; readonly batchSize: number; readonly burstWhenBatchFull: true };

async function measureSendToHandler(boss: PgBoss, options: { readonly samples: number; readonly workOptions: WorkOptions }): Promise<LatencySummary> {
  const queue = 'bench-latency';
  await boss.createQueue(queue, { notify: true });
  const waiting = new Map<string, () => void>();
  await boss.work<{ sample: number }>(queue, options.workOptions, (jobs) => {
    for (const job of jobs) waiting.get(String(job.data.sample))?.();
    return Promise.resolve();
  });
  const warmup = 20;
  const latencies: number[] = [];
  try {
    for (let sample = 0; sample < options.samples + warmup; sample += 1) {
      const handled = new Promise<void>((resolve) => waiting.set(String(sample), resolve));
      const start = process.hrtime.bigint();
      await boss.send(queue, { sample });
      await handled;
      if (sample >= warmup) latencies.push(elapsedMs(start));
      waiting.delete(String(sample));
    }
  } finally {
    await boss.offWork(queue, { wait: true });
  }
  return summarizeLatencies(latencies);
}

async function measureBacklogDrain(boss: PgBoss, options: { readonly backlog: number; readonly workOptions: WorkOptions }): Promise<{ jobsPerSecond: number; jobs: number }> {
  const queue = 'bench-backlog';
  await boss.createQueue(queue, { notify: true });
  for (let offset = 0; offset < options.backlog; offset += 1_000) {
    await boss.insert(queue, Array.from({ length: Math.min(1_000, options.backlog - offset) }, (_, index) => ({ data: { index: offset + index } })));
  }
  let handled = 0;
  let drained!: () => void;
  const done = new Promise<void>((resolve) => (drained = resolve));
  const start = process.hrtime.bigint();
  await boss.work(queue, options.workOptions, (jobs) => {
    handled += jobs.length;
    if (handled >= options.backlog) drained();
    return Promise.resolve();
  });
  await done;
  const seconds = elapsedMs(start) / 1000;
  await boss.offWork(queue, { wait: true });
  return { jobsPerSecond: handled / seconds, jobs: handled };
}

async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

/** The peer beside Switchyard's claims of the same run; ratios are Switchyard / peer. */
export function peerQueueRows(peer: PeerQueueFigures, claims: ClaimFigures): TableRow[] {
  return [
    [`${peer.peer}: send -> handler`, latencyCell(peer.sendToHandler), `${format(peer.jobsPerSecond, 0)} jobs/s (${peer.workers} workers x batch ${peer.batch})`, 'peer (same Postgres)'],
    [
      'Switchyard: enqueue -> claimed',
      latencyCell(claims.enqueueToClaimed),
      `${format(claims.claimsPerSecond, 0)} claims/s (8 claimers x batch 10)`,
      `${ratioCell(claims.enqueueToClaimed.p50, peer.sendToHandler.p50, 'p50')}, ${ratioCell(claims.claimsPerSecond, peer.jobsPerSecond, 'rate')}`,
    ],
  ];
}
