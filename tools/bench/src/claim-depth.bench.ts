import { Client } from 'pg';
import type { MessagingConnection } from '@switchyard/messaging';
import { CLAIM_CANDIDATES_SQL } from '@switchyard/persistence';
import { enqueuePayload, measureEnqueueToClaimed, send } from './claim.bench';
import { format, latencyCell, ratioCell, type TableRow } from './report-table';
import type { LatencySummary } from './statistics';

export interface DepthFigures {
  readonly depths: ReadonlyArray<{ readonly queued: number; readonly enqueueToClaimed: LatencySummary }>;
  /** EXPLAIN ANALYZE of the claim's candidate query at the deepest queue. */
  readonly claimQueryPlan: string[];
  readonly seedSeconds: number;
}

const SEED_PREFIX = 'bench-depth-';
/** The runtimes the seeded tasks wait for: none of them claims, so they stay queued. */
const SEED_RUNTIMES = 50;
const MEASURED_DAEMON = 'bench-depth-daemon';

/**
 * Enqueue → claimed with `depths` tasks already queued for other runtimes. The backlog is seeded in
 * SQL as copies of the `agent_task_queue` row of one task the queue enqueued itself (the row the
 * claim scans; their events are left out: only a claimed task's are read, by primary key), then
 * analyzed as autovacuum would have. Everything seeded is deleted afterwards.
 */
export async function measureClaimDepths(options: {
  readonly connection: MessagingConnection;
  readonly databaseUrl: string;
  readonly depths: readonly number[];
  readonly samples: number;
}): Promise<DepthFigures> {
  const client = new Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    const { taskId: templateTaskId } = await send(options.connection, 'task.enqueue', enqueuePayload(`${SEED_PREFIX}template-agent`, `${SEED_PREFIX}template-claude-code`));
    const depths: Array<DepthFigures['depths'][number]> = [];
    let seeded = 1;
    let seedMs = 0;
    for (const [index, depth] of options.depths.entries()) {
      const seedStart = performance.now();
      await seedQueuedTasks(client, { templateTaskId, from: seeded, to: depth - 1 });
      seedMs += performance.now() - seedStart;
      seeded = Math.max(seeded, depth);
      const enqueueToClaimed = await measureEnqueueToClaimed(options.connection, {
        daemonId: `${MEASURED_DAEMON}-${index}`,
        samples: options.samples,
        agentPrefix: `${SEED_PREFIX}measured-${index}-`,
        warmup: 10,
      });
      depths.push({ queued: depth, enqueueToClaimed });
    }
    const claimQueryPlan = await explainClaimQuery(client, `${MEASURED_DAEMON}-${options.depths.length - 1}-claude-code`);
    return { depths, claimQueryPlan, seedSeconds: seedMs / 1000 };
  } finally {
    await deleteSeeded(client).finally(() => client.end());
  }
}

/** Copies of the template task numbered `from`..`to` (inclusive), spread over other runtimes and agents. */
async function seedQueuedTasks(client: Client, options: { readonly templateTaskId: string; readonly from: number; readonly to: number }): Promise<void> {
  if (options.to < options.from) return;
  const { rows } = await client.query<{ column_name: string }>(
    "select column_name from information_schema.columns where table_name = 'agent_task_queue' and table_schema = current_schema() order by ordinal_position",
  );
  const overrides: Record<string, string> = {
    task_id: '$2 || n',
    agent_id: "$2 || 'agent-' || (n % 1000)",
    runtime_id: "$2 || 'elsewhere-' || (n % $5) || '-claude-code'",
    enqueued_at: "now() - interval '1 hour' + n * interval '1 millisecond'",
  };
  const columns = rows.map((row) => row.column_name);
  await client.query(
    `insert into agent_task_queue (${columns.join(', ')})
     select ${columns.map((column) => overrides[column] ?? `template.${column}`).join(', ')}
       from agent_task_queue template, generate_series($3::int, $4::int) n
      where template.task_id = $1`,
    [options.templateTaskId, SEED_PREFIX, options.from, options.to, SEED_RUNTIMES],
  );
  await client.query('analyze agent_task_queue');
}

/** The candidate statement of `claim-candidates.query.ts` (candidates and their agents' locks), as the claim runs it. */
async function explainClaimQuery(client: Client, runtimeId: string): Promise<string[]> {
  const { rows } = await client.query<{ 'QUERY PLAN': string }>(
    `explain (analyze, buffers, costs off) ${CLAIM_CANDIDATES_SQL}`,
    [[runtimeId], new Date().toISOString(), 40],
  );
  return rows.map((row) => row['QUERY PLAN']);
}

async function deleteSeeded(client: Client): Promise<void> {
  await client.query(`delete from agent_task_queue where task_id like $1`, [`${SEED_PREFIX}%`]);
}

export function claimDepthRows(figures: DepthFigures): TableRow[] {
  const shallowest = figures.depths[0];
  const rows: TableRow[] = figures.depths.map(({ queued, enqueueToClaimed }) => [
    `enqueue -> claimed, ${queued.toLocaleString('en-US')} queued elsewhere`,
    latencyCell(enqueueToClaimed),
    '',
    shallowest ? ratioCell(enqueueToClaimed.p50, shallowest.enqueueToClaimed.p50, `p50 at ${shallowest.queued}`) : '',
  ]);
  const execution = figures.claimQueryPlan.find((line) => line.startsWith('Execution Time'));
  const scan = figures.claimQueryPlan.find((line) => /Scan.* on agent_task_queue/.test(line))?.replace(/^[\s>-]+/, '');
  rows.push(['claim candidate query at the deepest queue', execution ?? '', scan ?? '', `seeded in ${format(figures.seedSeconds, 1)} s`]);
  return rows;
}
