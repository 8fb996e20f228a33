import { Client } from 'pg';
import { messageIds, subjects } from '@switchyard/contracts';
import { publish } from '@switchyard/messaging';
import type { BenchSystem } from './bench-system';
import { fakePrompt } from './fake-agent/fake-prompt';
import type { GatewayClient, TimelinePageView } from './gateway.client';
import { format, latencyCell, type TableRow } from './report-table';
import { elapsedMs, summarizeLatencies, type LatencySummary } from './statistics';
import { BENCH_DAEMON_ID, timelineEvent } from './timeline-messages';

export interface ReplayFigures {
  /** Rows of the task's timeline read back (the seeded ones and the few its run wrote). */
  readonly messages: number;
  /** How the rows got there: published as `task.message` events, written by the transcript projector. */
  readonly seeding: { readonly events: number; readonly seconds: number; readonly eventsPerSecond: number };
  readonly pageSize: number;
  /** The whole timeline over REST, page after page with `since = nextSince`. */
  readonly rest: { readonly seconds: number; readonly messagesPerSecond: number; readonly pages: number; readonly megabytes: number; readonly page: LatencySummary };
  /** The gateway's own query (keyset, `pageSize` rows) on one Postgres connection, no HTTP. */
  readonly rawPagedSelect: { readonly seconds: number; readonly rowsPerSecond: number };
  /** One `select` of every row, same columns. */
  readonly rawSingleSelect: { readonly seconds: number; readonly rowsPerSecond: number };
}

const PAGE_SIZE = 1_000;
const PUBLISH_WINDOW = 500;
/** Well above the few seqs the task's own run used, so seeded rows never meet them. */
const SEEDED_FIRST_SEQ = 1_000;
const TIMELINE_COLUMNS = 'id, task_id, seq, attempt, type, tool, call_id, content, input, output, output_truncated, tool_status, error_code, created_at';

/**
 * REST replay of a long timeline. A real task (created over REST, run by the fake agent) gets
 * `seededMessages` more `task.message` events published through JetStream, which the transcript
 * projector writes into `task_message` like any other; then the timeline is read back.
 */
export async function measureReplay(options: { readonly system: BenchSystem; readonly seededMessages: number }): Promise<ReplayFigures> {
  const { system } = options;
  const gateway = await system.gateway();
  const daemon = await system.sharedDaemon();
  const agentId = await gateway.createAgent({ name: `bench-replay-${Date.now()}`, runtimeId: daemon.runtimeId });
  const task = await gateway.createTask({ agentId, prompt: fakePrompt({ events: 2, rate: 1_000 }) });
  const finished = await gateway.waitForTask({ taskId: task.taskId, states: ['completed', 'failed', 'cancelled'], timeoutMs: 60_000 });
  if (finished.status !== 'completed') throw new Error(`replay task ${task.taskId} ended ${finished.status}`);

  const database = new Client({ connectionString: system.databaseUrl });
  await database.connect();
  try {
    const countRows = async (): Promise<number> => Number((await database.query<{ count: string }>('select count(*) from task_message where task_id = $1', [task.taskId])).rows[0]!.count);
    // The run's own rows (its two messages) come through the projector shortly after it completed.
    await waitFor(async () => (await countRows()) >= 2, 30_000, 'the replay task’s own rows');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const rowsBefore = await countRows();

    const seedStart = process.hrtime.bigint();
    await publishTimeline(system, task.taskId, SEEDED_FIRST_SEQ, options.seededMessages);
    const expected = rowsBefore + options.seededMessages;
    await waitFor(async () => (await countRows()) >= expected, 300_000, `${expected} rows of ${task.taskId}`);
    const seedSeconds = elapsedMs(seedStart) / 1000;

    // Warm-up: the routes, the query plan and the pools are hot before the clock runs.
    await replayOverRest(gateway, task.taskId, 5);
    const rest = await replayOverRest(gateway, task.taskId);
    if (rest.messages !== expected) throw new Error(`REST replay returned ${rest.messages} messages, expected ${expected}`);
    const rawPagedSelect = await selectPaged(database, task.taskId, expected);
    const rawSingleSelect = await selectAll(database, task.taskId, expected);
    return {
      messages: expected,
      seeding: { events: options.seededMessages, seconds: seedSeconds, eventsPerSecond: options.seededMessages / seedSeconds },
      pageSize: PAGE_SIZE,
      rest: { seconds: rest.seconds, messagesPerSecond: expected / rest.seconds, pages: rest.pages, megabytes: rest.bytes / 2 ** 20, page: summarizeLatencies(rest.pageLatencies) },
      rawPagedSelect,
      rawSingleSelect,
    };
  } finally {
    await database.end();
  }
}

/** Like the daemon's outbox: ids `<daemonId>:<taskId>:<seq>`, acked by JetStream; `PUBLISH_WINDOW` in flight. */
async function publishTimeline(system: BenchSystem, taskId: string, firstSeq: number, count: number): Promise<void> {
  for (let offset = 0; offset < count; offset += PUBLISH_WINDOW) {
    await Promise.all(
      Array.from({ length: Math.min(PUBLISH_WINDOW, count - offset) }, (_, index) => {
        const envelope = timelineEvent(taskId, firstSeq + offset + index, (message) => message);
        return publish(system.connection, {
          subject: subjects.forEvent(envelope, BENCH_DAEMON_ID),
          data: envelope,
          messageId: messageIds.taskMessage({ publisher: BENCH_DAEMON_ID, taskId, seq: envelope.payload.seq }),
          retry: { maxAttempts: Infinity },
        });
      }),
    );
  }
}

async function replayOverRest(
  gateway: GatewayClient,
  taskId: string,
  maxPages = Infinity,
): Promise<{ messages: number; pages: number; bytes: number; seconds: number; pageLatencies: number[] }> {
  const pageLatencies: number[] = [];
  let messages = 0;
  let bytes = 0;
  let since: number | null = null;
  const start = process.hrtime.bigint();
  for (let hasMore = true; hasMore && pageLatencies.length < maxPages; ) {
    const pageStart = process.hrtime.bigint();
    const query: string = since === null ? `limit=${PAGE_SIZE}` : `since=${since}&limit=${PAGE_SIZE}`;
    const response = await fetch(`${gateway.url}/api/tasks/${taskId}/messages?${query}`, { headers: { authorization: `Bearer ${gateway.token}` } });
    if (!response.ok) throw new Error(`replay page: HTTP ${response.status} ${await response.text()}`);
    const body = await response.text();
    const page = JSON.parse(body) as TimelinePageView;
    pageLatencies.push(elapsedMs(pageStart));
    bytes += Buffer.byteLength(body);
    messages += page.messages.length;
    since = page.nextSince;
    hasMore = page.hasMore;
  }
  return { messages, pages: pageLatencies.length, bytes, seconds: elapsedMs(start) / 1000, pageLatencies };
}

async function selectPaged(database: Client, taskId: string, expected: number): Promise<{ seconds: number; rowsPerSecond: number }> {
  const statement = `select ${TIMELINE_COLUMNS} from task_message where task_id = $1 and seq > $2 order by seq limit $3`;
  await database.query(statement, [taskId, -1, PAGE_SIZE + 1]);
  const start = process.hrtime.bigint();
  let rows = 0;
  for (let since = -1; ; ) {
    const page = await database.query<{ seq: number }>(statement, [taskId, since, PAGE_SIZE + 1]);
    const kept = page.rows.slice(0, PAGE_SIZE);
    rows += kept.length;
    if (page.rows.length <= PAGE_SIZE) break;
    since = kept.at(-1)!.seq;
  }
  const seconds = elapsedMs(start) / 1000;
  if (rows !== expected) throw new Error(`paged select returned ${rows} rows, expected ${expected}`);
  return { seconds, rowsPerSecond: rows / seconds };
}

async function selectAll(database: Client, taskId: string, expected: number): Promise<{ seconds: number; rowsPerSecond: number }> {
  const start = process.hrtime.bigint();
  const result = await database.query(`select ${TIMELINE_COLUMNS} from task_message where task_id = $1 order by seq`, [taskId]);
  const seconds = elapsedMs(start) / 1000;
  if (result.rows.length !== expected) throw new Error(`select returned ${result.rows.length} rows, expected ${expected}`);
  return { seconds, rowsPerSecond: result.rows.length / seconds };
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function replayRows(figures: ReplayFigures): TableRow[] {
  const perSecond = (value: number, unit: string): string => `${format(value, 0)} ${unit}/s`;
  const seconds = (value: number): string => `${format(value * 1000, 0)} ms total`;
  return [
    ['raw PG select, one statement (baseline)', seconds(figures.rawSingleSelect.seconds), perSecond(figures.rawSingleSelect.rowsPerSecond, 'rows'), '1.00'],
    [`raw PG select, ${figures.pageSize}-row keyset pages`, seconds(figures.rawPagedSelect.seconds), perSecond(figures.rawPagedSelect.rowsPerSecond, 'rows'), `${format((figures.rawPagedSelect.rowsPerSecond / figures.rawSingleSelect.rowsPerSecond) * 100, 1)}% of one select`],
    [
      `REST replay of ${figures.messages} messages`,
      seconds(figures.rest.seconds),
      `${perSecond(figures.rest.messagesPerSecond, 'msgs')}, ${format(figures.rest.megabytes, 1)} MiB`,
      `${format((figures.rest.messagesPerSecond / figures.rawSingleSelect.rowsPerSecond) * 100, 1)}% of one select`,
    ],
    [`  one REST page (${figures.pageSize} msgs, ${figures.rest.pages} pages)`, latencyCell(figures.rest.page), '', ''],
    [`  seeded: ${figures.seeding.events} task.message via JetStream`, `${format(figures.seeding.seconds, 1)} s until all are rows`, perSecond(figures.seeding.eventsPerSecond, 'events'), 'written by the transcript projector'],
  ];
}
