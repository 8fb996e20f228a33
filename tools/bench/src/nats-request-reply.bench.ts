import type { MessagingConnection } from '@switchyard/messaging';
import { benchmarkNatsClients } from '@switchyard/messaging/testing';
import { elapsedMs, summarizeLatencies, type LatencySummary } from './statistics';

export interface RoundTripFigures {
  readonly latency: LatencySummary;
  readonly requestsPerSecond: number;
}

/**
 * The physical floor under every command: a core NATS request/reply round trip to an echo
 * responder, sequentially for latency and with `concurrency` callers for throughput.
 */
export async function measureNatsRoundTrip(
  connection: MessagingConnection,
  options: { readonly samples: number; readonly concurrency: number; readonly payloadBytes: number },
): Promise<RoundTripFigures> {
  const subject = connection.namespace.subject('bench.echo');
  // The floor is nats.js itself, without our layer.
  const { nats } = benchmarkNatsClients(connection);
  const subscription = nats.subscribe(subject, { queue: 'bench' });
  const echoing = (async () => {
    for await (const message of subscription) message.respond(message.data);
  })();
  const payload = new Uint8Array(options.payloadBytes).fill(120);
  try {
    for (let warmup = 0; warmup < 100; warmup += 1) await nats.request(subject, payload, { timeout: 5_000 });
    const latencies: number[] = [];
    for (let sample = 0; sample < options.samples; sample += 1) {
      const start = process.hrtime.bigint();
      await nats.request(subject, payload, { timeout: 5_000 });
      latencies.push(elapsedMs(start));
    }
    const perCaller = Math.ceil(options.samples / options.concurrency);
    const start = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        for (let request = 0; request < perCaller; request += 1) await nats.request(subject, payload, { timeout: 5_000 });
      }),
    );
    const seconds = elapsedMs(start) / 1000;
    return { latency: summarizeLatencies(latencies), requestsPerSecond: (perCaller * options.concurrency) / seconds };
  } finally {
    subscription.unsubscribe();
    await echoing;
  }
}
