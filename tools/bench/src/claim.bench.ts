import { createCommand, createEvent, isDaemonCommand, subjects, type CommandName, type CommandPayloadOf, type CommandResultOf } from '@switchyard/contracts';
import { publish, request, sleep, type MessagingConnection } from '@switchyard/messaging';
import { benchmarkNatsClients } from '@switchyard/messaging/testing';
import { TEST_SEALING_KEY, sampleAgentSnapshot } from '@switchyard/testing';
import type { RoundTripFigures } from './nats-request-reply.bench';
import { format, type TableRow } from './report-table';
import { elapsedMs, summarizeLatencies, type LatencySummary } from './statistics';

export interface ClaimFigures {
  readonly enqueueToClaimed: LatencySummary;
  readonly claimsPerSecond: number;
  readonly claimedTasks: number;
}

/** The daemon whose claims are timed; the queue nudges it once it has heard its heartbeat. */
const LATENCY_DAEMON = 'bench-latency-daemon';
/** The daemon of the backlog runtime: a daemon claims only for runtimes it heartbeats, so the claimers race as its concurrent claims. */
const BACKLOG_DAEMON = 'bench-backlog-daemon';
/** Claim anyway after this long without a nudge, as a daemon's safety poll does. */
const NUDGE_WAIT_MS = 1_000;

/** Sends as the daemon the payload names (daemon-sent commands travel on `cmd.<name>.<daemonId>`) or as a service. */
export function send<TName extends CommandName>(connection: MessagingConnection, command: TName, payload: CommandPayloadOf<TName>): Promise<CommandResultOf<TName>> {
  const envelope = createCommand({ command, payload }) as { requestId: string };
  const subjectOf = subjects.command as (name: CommandName, sender?: string) => string;
  const subject = isDaemonCommand(command) ? subjectOf(command, (payload as { daemonId: string }).daemonId) : subjectOf(command);
  return request(connection, { subject, data: envelope, requestId: envelope.requestId, timeoutMs: 30_000 });
}

/** A heartbeat of the runtime from the daemon: the queue nudges the daemon it last heard a runtime from. */
export async function heartbeat(connection: MessagingConnection, daemonId: string, runtimeId: string): Promise<void> {
  const envelope = createEvent({ type: 'runtime.heartbeat', payload: { daemonId, runtimeId, activeTaskIds: [], freeSlots: 1 } });
  await publish(connection, { subject: subjects.runtimeHeartbeat(runtimeId, daemonId), data: envelope, messageId: envelope.eventId });
}

export function enqueuePayload(agentId: string, runtimeId: string): CommandPayloadOf<'task.enqueue'> {
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
 * by `claimers` concurrent claims of one daemon.
 */
export async function measureClaims(
  connection: MessagingConnection,
  options: { readonly latencySamples: number; readonly backlog: number; readonly claimers: number; readonly batch: number },
): Promise<ClaimFigures> {
  const enqueueToClaimed = await measureEnqueueToClaimed(connection, { daemonId: LATENCY_DAEMON, samples: options.latencySamples, agentPrefix: 'bench-agent-' });
  const backlogRuntime = `${BACKLOG_DAEMON}-claude-code`;
  // Recorded while the backlog is enqueued, before the first claim.
  await heartbeat(connection, BACKLOG_DAEMON, backlogRuntime);
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
    Array.from({ length: options.claimers }, async () => {
      for (;;) {
        const { tasks } = await send(connection, 'task.claim', { daemonId: BACKLOG_DAEMON, runtimeIds: [backlogRuntime], maxTasks: options.batch, sealingKey: TEST_SEALING_KEY.publicKey });
        if (tasks.length === 0) return;
        claimedTasks += tasks.length;
      }
    }),
  );
  const seconds = elapsedMs(start) / 1000;
  return { enqueueToClaimed, claimsPerSecond: claimedTasks / seconds, claimedTasks };
}

/**
 * Enqueue → claimed, one task at a time, for a daemon of its own: it waits for the queue's
 * work-available nudge, claims, and the clock stops when the claim reply holds the task.
 */
export async function measureEnqueueToClaimed(
  connection: MessagingConnection,
  options: { readonly daemonId: string; readonly samples: number; readonly agentPrefix: string; readonly warmup?: number },
): Promise<LatencySummary> {
  const { daemonId } = options;
  const runtimeId = `${daemonId}-claude-code`;
  const warmup = options.warmup ?? 20;
  const { nats } = benchmarkNatsClients(connection);
  const nudges = nats.subscribe(connection.namespace.subject(subjects.workAvailable(daemonId, runtimeId)));
  const iterator = nudges[Symbol.asyncIterator]();
  await nats.flush();
  // The warm-up samples cover the moment the queue records it.
  await heartbeat(connection, daemonId, runtimeId);
  let nextNudge = iterator.next();
  const latencies: number[] = [];
  try {
    for (let sample = 0; sample < options.samples + warmup; sample += 1) {
      const start = process.hrtime.bigint();
      // Distinct agents: the agent limit must not be what is measured.
      const { taskId } = await send(connection, 'task.enqueue', enqueuePayload(`${options.agentPrefix}${sample}`, runtimeId));
      let claimed = false;
      while (!claimed) {
        const nudged = await Promise.race([nextNudge.then(() => true), sleep(NUDGE_WAIT_MS).then(() => false)]);
        if (nudged) nextNudge = iterator.next();
        const { tasks } = await send(connection, 'task.claim', { daemonId, runtimeIds: [runtimeId], maxTasks: 1, sealingKey: TEST_SEALING_KEY.publicKey });
        claimed = tasks.some((task) => task.taskId === taskId);
      }
      if (sample >= warmup) latencies.push(elapsedMs(start));
    }
  } finally {
    nudges.unsubscribe();
  }
  return summarizeLatencies(latencies);
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
