import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { connectMessaging, deleteNamespaceStreams } from '@switchyard/messaging';
import { startServiceChild } from '@switchyard/testing';
import { provideBenchInfrastructure, serverVersions } from './bench-infrastructure';
import { measureClaims } from './claim.bench';
import { measureNatsRoundTrip } from './nats-request-reply.bench';

const format = (value: number, digits = 2): string => value.toFixed(digits);

/** `npm run bench`: figures beside a baseline measured in the same run; never pass/fail. */
async function main(): Promise<void> {
  // The bench's namespace must not reserve production stream sizes on a shared server.
  process.env['SWITCHYARD_STREAM_MAX_BYTES_CAP'] ??= String(256 * 1024 * 1024);
  const infrastructure = await provideBenchInfrastructure();
  const namespace = `bench${randomBytes(4).toString('hex')}`;
  const queue = await startServiceChild({
    entry: 'services/queue/src/main.js',
    env: { ...process.env, NATS_URL: infrastructure.natsUrl, DATABASE_URL: infrastructure.databaseUrl, SWITCHYARD_NAMESPACE: namespace, PORT: '0', LOG_LEVEL: 'info' },
    timeoutMs: 60_000,
  });
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
    const roundTrip = await measureNatsRoundTrip(connection, { samples: 2_000, concurrency: 8, payloadBytes: 512 });
    const claims = await measureClaims(connection, { latencySamples: 300, backlog: 2_000, claimers: 8, batch: 10 });

    const rows = [
      ['raw NATS request/reply (baseline)', `p50 ${format(roundTrip.latency.p50)} ms, p99 ${format(roundTrip.latency.p99)} ms`, `${format(roundTrip.requestsPerSecond, 0)} req/s (8 callers)`, '1.00'],
      [
        'enqueue -> claimed (nudge + claim)',
        `p50 ${format(claims.enqueueToClaimed.p50)} ms, p99 ${format(claims.enqueueToClaimed.p99)} ms`,
        '',
        `x${format(claims.enqueueToClaimed.p50 / roundTrip.latency.p50, 1)} p50 of a round trip`,
      ],
      ['claims (8 daemons, batch 10)', '', `${format(claims.claimsPerSecond, 0)} claims/s`, `${format((claims.claimsPerSecond / roundTrip.requestsPerSecond) * 100, 1)}% of req/s`],
    ];
    process.stdout.write(`\nSwitchyard bench: ${new Date().toISOString()}\n`);
    process.stdout.write(`machine: ${JSON.stringify(machine)}\n\n`);
    const widths = [38, 36, 28, 30];
    const header = ['measure', 'latency', 'throughput', 'vs baseline'];
    for (const row of [header, ...rows]) process.stdout.write(`${row.map((cell, index) => cell.padEnd(widths[index]!)).join(' ')}\n`);

    const resultsDirectory = path.resolve('.switchyard', 'bench');
    mkdirSync(resultsDirectory, { recursive: true });
    const file = path.join(resultsDirectory, 'results.json');
    writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), machine, roundTrip, claims }, null, 2)}\n`);
    process.stdout.write(`\nresults: ${file}\n`);
  } finally {
    await deleteNamespaceStreams(connection).catch(() => undefined);
    await connection.close();
    await queue.stop();
    await infrastructure.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
