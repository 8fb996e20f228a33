import { createCommand, subjects, type CommandName, type CommandPayloadOf, type CommandResultOf } from '@switchyard/contracts';
import { request, type MessagingConnection } from '@switchyard/messaging';
import { benchmarkNatsClients } from '@switchyard/messaging/testing';
import { sampleAgentSnapshot } from '@switchyard/testing';
import type { RoundTripFigures } from './nats-request-reply.bench';
import { format, type TableRow } from './report-table';
import { elapsedMs, summarizeLatencies, type LatencySummary } from './statistics';

export interface ClaimFigures {
  readonly enqueueToClaimed: LatencySummary;
  readonly claimsPerSecond: number;
  readonly claimedTasks: number;
}

function send<TName extends CommandName>(connection: MessagingConnection, command: TName, payload: CommandPayloadOf<TName>): Promise<CommandResultOf<TName>> {
  const envelope = createCommand({ command, payload }) as { requestId: string };
  return request(connection, { subject: subjects.command(command), data: envelope, requestId: envelope.requestId, timeoutMs: 30_000 });
}

function enqueuePayload(agentId: string, runtimeId: string): CommandPayloadOf<'task.enqueue'> {
  return {
    workspaceId: 'bench',
    agentId,
    agent: sampleAgentSnapshot(),
    runtimeId,
    source: { kind: 'quick_create' },
    priority: 0,
    prompt: 'bench',
    forceFreshSession: false,
    maxAttempts: null,
    fireAt: null,
    expiresAt: null,
  };
}

/**
 * Enqueue → claimed as a daemon sees it: the daemon waits for the queue's work-available nudge,
 * claims, and the clock stops when the claim reply holds the task. Then claims/s: a backlog drained
 * by `claimers` concurrent daemons.
 */
export async function measureClaims(
  connection: MessagingConnection,
  options: { readonly latencySamples: number; readonly backlog: number; readonly claimers: number; readonly batch: number },
): Promise<ClaimFigures> {
  const runtimeId = 'bench-latency-runtime';
  const { nats } = benchmarkNatsClients(connection);
  const nudges = nats.subscribe(connection.namespace.subject(subjects.workAvailable(runtimeId)));
  const iterator = nudges[Symbol.asyncIterator]();
  await nats.flush();
  const latencies: number[] = [];
  try {
    for (let sample = 0; sample < options.latencySamples + 20; sample += 1) {
      const start = process.hrtime.bigint();
      // Distinct agents: the agent limit must not be what is measured.
      const { taskId } = await send(connection, 'task.enqueue', enqueuePayload(`bench-agent-${sample}`, runtimeId));
      let claimed = false;
      while (!claimed) {
        await iterator.next();
        const { tasks } = await send(connection, 'task.claim', { daemonId: 'bench-daemon', runtimeIds: [runtimeId], maxTasks: 1 });
        claimed = tasks.some((task) => task.taskId === taskId);
      }
      if (sample >= 20) latencies.push(elapsedMs(start));
    }
  } finally {
    nudges.unsubscribe();
  }

  const backlogRuntime = 'bench-backlog-runtime';
  for (let offset = 0; offset < options.backlog; offset += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, options.backlog - offset) }, (_, index) =>
        send(connection, 'task.enqueue', enqueuePayload(`bench-backlog-agent-${(offset + index) % 500}`, backlogRuntime)),
      ),
    );
  }
  let claimedTasks = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: options.claimers }, async (_, claimer) => {
      for (;;) {
        const { tasks } = await send(connection, 'task.claim', { daemonId: `bench-claimer-${claimer}`, runtimeIds: [backlogRuntime], maxTasks: options.batch });
        if (tasks.length === 0) return;
        claimedTasks += tasks.length;
      }
    }),
  );
  const seconds = elapsedMs(start) / 1000;
  return { enqueueToClaimed: summarizeLatencies(latencies), claimsPerSecond: claimedTasks / seconds, claimedTasks };
}

export function claimRows(roundTrip: RoundTripFigures, claims: ClaimFigures): TableRow[] {
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
