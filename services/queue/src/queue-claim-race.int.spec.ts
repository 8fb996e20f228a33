import { STREAM_CATALOG, type CommandPayloadOf } from '@switchyard/contracts';
import { readStream } from '@switchyard/messaging/testing';
import { TEST_SEALING_KEY, startServiceForTest, type ServiceUnderTest } from '@switchyard/testing';
import { queueApp } from './queue.app';
import { QueueTestClient, enqueuePayload } from './queue-test-client.spec-helper';

const TASKS = 300;
const CLAIMERS = 8;
const AGENTS = 10;
/** A runtime is claimed only by its daemon: the claimers race as that daemon's concurrent claims. */
const DAEMON = 'daemon-race';
const RUNTIMES = [`${DAEMON}-runtime-a`, `${DAEMON}-runtime-b`];
/** Agents 0-4 may run 2 tasks at once; the others keep the default of 6. */
const limitOf = (agentIndex: number): number => (agentIndex < 5 ? 2 : 6);

interface Violation {
  readonly kind: string;
  readonly key: string;
  readonly active: number;
}

describe('claim race: 8 claimers, 2 queue replicas, 300 tasks (real NATS + Postgres)', () => {
  let first: ServiceUnderTest;
  let second: ServiceUnderTest;
  let clients: QueueTestClient[] = [];

  beforeAll(async () => {
    first = await startServiceForTest(queueApp, { database: true });
    second = await startServiceForTest(queueApp, { database: true, replicaOf: first });
    clients = await Promise.all(Array.from({ length: 3 }, () => QueueTestClient.connect(first)));
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await second?.stop();
    await first?.stop();
  });

  it('claims every task exactly once and never runs an agent over its limit or an issue twice at once', async () => {
    const [admin, sampler] = clients as [QueueTestClient, QueueTestClient, QueueTestClient];
    const enqueued = await Promise.all(
      Array.from({ length: TASKS }, (_, index) => {
        const source: CommandPayloadOf<'task.enqueue'>['source'] =
          index % 3 === 0 ? { kind: 'issue', issueId: `issue-${index % 7}`, trigger: 'mention', commentId: null } : { kind: 'quick_create' };
        const agent = index % AGENTS;
        const payload = enqueuePayload({ agentId: `agent-${agent}`, runtimeId: RUNTIMES[index % 2]!, priority: index % 4, source });
        return admin.expectOk('task.enqueue', { ...payload, agent: { ...payload.agent, maxConcurrentTasks: limitOf(agent) } });
      }),
    );
    expect(new Set(enqueued.map((task) => task.taskId)).size).toBe(TASKS);
    for (const runtimeId of RUNTIMES) await admin.heartbeat(runtimeId, DAEMON);

    const violations: Violation[] = [];
    let busiest = 0;
    let racing = true;
    const sampling = (async () => {
      while (racing) {
        const perAgent = await sampler.query<{ agent_id: string; active: number }>(
          `select agent_id, count(*)::int as active from agent_task_queue where status in ('dispatched', 'running') group by agent_id`,
        );
        for (const row of perAgent) {
          busiest = Math.max(busiest, row.active);
          if (row.active > limitOf(Number(row.agent_id.split('-')[1]))) violations.push({ kind: 'agent', key: row.agent_id, active: row.active });
        }
        const perIssue = await sampler.query<{ key: string; active: number }>(
          `select agent_id || '/' || issue_id as key, count(*)::int as active from agent_task_queue
            where status in ('dispatched', 'running') and issue_id is not null group by agent_id, issue_id having count(*) > 1`,
        );
        violations.push(...perIssue.map((row) => ({ kind: 'issue', key: row.key, active: row.active })));
      }
    })();

    // Each claimer sends through one of two connections; the queue group spreads the requests over both replicas.
    const claimedBy = new Map<string, string[]>();
    const claimer = async (index: number): Promise<void> => {
      const client = clients[index % 2]!;
      const daemonId = DAEMON;
      const claimerId = `claimer-${index}`;
      let idle = 0;
      while (idle < 20) {
        const { tasks } = await client.expectOk('task.claim', { daemonId, runtimeIds: RUNTIMES, maxTasks: 3, sealingKey: TEST_SEALING_KEY.publicKey });
        if (tasks.length === 0) {
          idle += 1;
          const [{ open }] = (await client.query<{ open: number }>(
            `select count(*)::int as open from agent_task_queue where status not in ('completed', 'failed', 'cancelled')`,
          )) as [{ open: number }];
          if (open === 0) return;
          await new Promise((resolve) => setTimeout(resolve, 20));
          continue;
        }
        idle = 0;
        await Promise.all(
          tasks.map(async (task) => {
            claimedBy.set(task.taskId, [...(claimedBy.get(task.taskId) ?? []), claimerId]);
            await client.expectOk('task.start', { taskId: task.taskId, attempt: task.attempt, daemonId, leaseToken: task.leaseToken, workDir: `/w/${task.taskId}`, resumedSessionId: null });
            await client.expectOk('task.complete', { taskId: task.taskId, attempt: task.attempt, daemonId, leaseToken: task.leaseToken, sessionId: null, output: 'ok', durationMs: 1, usage: [], repositories: [] });
          }),
        );
      }
    };
    await Promise.all(Array.from({ length: CLAIMERS }, (_, index) => claimer(index)));
    racing = false;
    await sampling;

    expect(violations).toEqual([]);
    // The race really overlapped: some agent ran several tasks at once while others claimed.
    expect(busiest).toBeGreaterThan(1);
    expect(claimedBy.size).toBe(TASKS);
    expect([...claimedBy.values()].filter((daemons) => daemons.length !== 1)).toEqual([]);
    const claimEvents = await admin.query<{ aggregate_id: string; claims: number }>(
      `select aggregate_id, count(*)::int as claims from outbox_event where type = 'task.claimed' group by aggregate_id having count(*) <> 1`,
    );
    expect(claimEvents).toEqual([]);
    const [{ completed }] = (await admin.query<{ completed: number }>(
      `select count(*)::int as completed from agent_task_queue where status = 'completed'`,
    )) as [{ completed: number }];
    expect(completed).toBe(TASKS);

    // Both replicas relay; every stored event reaches JetStream exactly once.
    const deadline = Date.now() + 30_000;
    let unpublished = Infinity;
    while (unpublished > 0 && Date.now() < deadline) {
      [{ unpublished }] = (await admin.query<{ unpublished: number }>('select count(*)::int as unpublished from outbox_event where published_at is null')) as [
        { unpublished: number },
      ];
      if (unpublished > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(unpublished).toBe(0);
    const stored = await readStream(admin.messaging, STREAM_CATALOG.TASK_EVENTS.name);
    const [{ events }] = (await admin.query<{ events: number }>('select count(*)::int as events from outbox_event')) as [{ events: number }];
    expect(stored).toHaveLength(events);
    expect(new Set(stored.map((message) => message.headers['Nats-Msg-Id'])).size).toBe(events);
  });
});
