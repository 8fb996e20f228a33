import { Client } from 'pg';
import { messageIds, subjects } from '@switchyard/contracts';
import { publish } from '@switchyard/messaging';
import type { BenchSystem } from './bench-system';
import { fakePrompt } from './fake-agent/fake-prompt';
import type { GatewayClient, TimelinePageView } from './gateway.client';
import { format, latencyCell, ratioCell, type TableRow } from './report-table';
import { elapsedMs, summarizeLatencies, type LatencySummary } from './statistics';
import { BENCH_DAEMON_ID, timelineEvent } from './timeline-messages';

/** The whole timeline read back at one length: over REST and by the two raw selects (each the median of `ROUNDS` rounds). */
export interface ReplayPoint {
  /** Rows of the task's timeline read back (the seeded ones and the few its run wrote). */
  readonly messages: number;
  readonly pageSize: number;
  /** The whole timeline over REST, page after page with `since = nextSince`. */
  readonly rest: { readonly seconds: number; readonly messagesPerSecond: number; readonly pages: number; readonly megabytes: number; readonly page: LatencySummary };
  /** The gateway's own query (keyset, `pageSize` rows) on one Postgres connection, no HTTP. */
  readonly rawPagedSelect: { readonly seconds: number; readonly rowsPerSecond: number };
  /** One `select` of every row, same columns. */
  readonly rawSingleSelect: { readonly seconds: number; readonly rowsPerSecond: number };
}

export interface ReplayFigures extends ReplayPoint {
  /** How the rows got there: published as `task.message` events, written by the transcript projector. */
  readonly seeding: { readonly events: number; readonly seconds: number; readonly eventsPerSecond: number };
  /** The page a client opens first, the newest `rows` (`before=end`), against a raw keyset select of as many, samples interleaved. */
  readonly firstPage: { readonly rows: number; readonly rest: LatencySummary; readonly rawKeysetPage: LatencySummary };
  /** The same reads as the timeline grows (`REPLAY_SCALING_LENGTHS` seeded messages), the headline length among them. */
  readonly scaling: readonly ReplayPoint[];
}

/** Seeded lengths the replay is measured at, one task growing through them. */
export const REPLAY_SCALING_LENGTHS = [1_000, 10_000, 50_000, 100_000] as const;

const PAGE_SIZE = 1_000;
const ROUNDS = 3;
const FIRST_PAGE_ROWS = 200;
const FIRST_PAGE_SAMPLES = 100;
const PUBLISH_WINDOW = 500;
/** Well above the few seqs the task's own run used, so seeded rows never meet them. */
const SEEDED_FIRST_SEQ = 1_000;
const TIMELINE_COLUMNS = 'id, task_id, seq, attempt, type, tool, call_id, content, input, output, output_truncated, tool_status, error_code, created_at';

/**
 * REST replay of a long timeline. A real task (created over REST, run by the fake agent) grows by
 * `task.message` events published through JetStream, which the transcript projector writes into
 * `task_message` like any other; the timeline is read back at each of `REPLAY_SCALING_LENGTHS`
 * and at `seededMessages`, the headline length, where the first page is measured too.
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
  // The baselines read by the best plan there is, the (task_id, seq) index in order, as the
  // gateway's keyset functions do: left to guess, the planner sorts a bitmap scan of the rest.
  await database.query('set enable_bitmapscan = off; set enable_sort = off');
  try {
    const countRows = async (): Promise<number> => Number((await database.query<{ count: string }>('select count(*) from task_message where task_id = $1', [task.taskId])).rows[0]!.count);
    // The run's own rows (its two messages) come through the projector shortly after it completed.
    await waitFor(async () => (await countRows()) >= 2, 30_000, 'the replay task’s own rows');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const rowsBefore = await countRows();

    const scaling: ReplayPoint[] = [];
    let headline: { point: ReplayPoint; seeding: ReplayFigures['seeding']; firstPage: ReplayFigures['firstPage'] } | undefined;
    let seeded = 0;
    for (const length of lengthsUpTo(options.seededMessages)) {
      const seedStart = process.hrtime.bigint();
      await publishTimeline(system, task.taskId, SEEDED_FIRST_SEQ + seeded, length - seeded);
      const expected = rowsBefore + length;
      await waitFor(async () => (await countRows()) >= expected, 300_000, `${expected} rows of ${task.taskId}`);
      const seedSeconds = elapsedMs(seedStart) / 1000;
      const events = length - seeded;
      seeded = length;
      const point = await measureReplayPoint({ gateway, database, taskId: task.taskId, expected });
      scaling.push(point);
      if (length === options.seededMessages) {
        headline = { point, seeding: { events, seconds: seedSeconds, eventsPerSecond: events / seedSeconds }, firstPage: await measureFirstPage({ gateway, database, taskId: task.taskId }) };
      }
    }
    if (!headline) throw new Error(`replay: no point measured at ${options.seededMessages} messages`);
    return { ...headline.point, seeding: headline.seeding, firstPage: headline.firstPage, scaling };
  } finally {
    await database.end();
  }
}

/** Every scaling length and the headline length, shortest first: the task grows through them. */
function lengthsUpTo(headline: number): number[] {
  return [...new Set([...REPLAY_SCALING_LENGTHS, headline])].sort((left, right) => left - right);
}

async function measureReplayPoint(options: { readonly gateway: GatewayClient; readonly database: Client; readonly taskId: string; readonly expected: number }): Promise<ReplayPoint> {
  const { gateway, database, taskId, expected } = options;
  // Warm-up: the routes, the query plan and the pools are hot before the clock runs.
  await replayOverRest(gateway, taskId, 5);
  // The three reads in turn, `ROUNDS` times, each figure the median round: on a shared machine
  // the load moves during a run, and each ratio then compares reads made under the same load.
  const rounds: Array<{ rest: RestReplay; rawPagedSelect: SelectFigures; rawSingleSelect: SelectFigures }> = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const restRound = await replayOverRest(gateway, taskId);
    if (restRound.messages !== expected) throw new Error(`REST replay returned ${restRound.messages} messages, expected ${expected}`);
    rounds.push({ rest: restRound, rawPagedSelect: await selectPaged(database, taskId, expected), rawSingleSelect: await selectAll(database, taskId, expected) });
  }
  const rest = medianBy(rounds.map((entry) => entry.rest), (entry) => entry.seconds);
  return {
    messages: expected,
    pageSize: PAGE_SIZE,
    rest: { seconds: rest.seconds, messagesPerSecond: expected / rest.seconds, pages: rest.pages, megabytes: rest.bytes / 2 ** 20, page: summarizeLatencies(rest.pageLatencies) },
    rawPagedSelect: medianBy(rounds.map((entry) => entry.rawPagedSelect), (entry) => entry.seconds),
    rawSingleSelect: medianBy(rounds.map((entry) => entry.rawSingleSelect), (entry) => entry.seconds),
  };
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

interface RestReplay {
  readonly messages: number;
  readonly pages: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly pageLatencies: number[];
}
interface SelectFigures {
  readonly seconds: number;
  readonly rowsPerSecond: number;
}

function medianBy<T>(values: readonly T[], key: (value: T) => number): T {
  return [...values].sort((left, right) => key(left) - key(right))[Math.floor(values.length / 2)]!;
}

async function replayOverRest(gateway: GatewayClient, taskId: string, maxPages = Infinity): Promise<RestReplay> {
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

async function selectPaged(database: Client, taskId: string, expected: number): Promise<SelectFigures> {
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

async function selectAll(database: Client, taskId: string, expected: number): Promise<SelectFigures> {
  const start = process.hrtime.bigint();
  const result = await database.query(`select ${TIMELINE_COLUMNS} from task_message where task_id = $1 order by seq`, [taskId]);
  const seconds = elapsedMs(start) / 1000;
  if (result.rows.length !== expected) throw new Error(`select returned ${result.rows.length} rows, expected ${expected}`);
  return { seconds, rowsPerSecond: result.rows.length / seconds };
}

/**
 * The newest page as a client opens it (`before=end`, body read and parsed) and the raw keyset
 * select of the same rows on one connection, one sample of each in turn so both see the same load.
 */
async function measureFirstPage(options: {
  readonly gateway: GatewayClient;
  readonly database: Client;
  readonly taskId: string;
}): Promise<{ rows: number; rest: LatencySummary; rawKeysetPage: LatencySummary }> {
  const { gateway, database, taskId } = options;
  const url = `${gateway.url}/api/tasks/${taskId}/messages?before=end&limit=${FIRST_PAGE_ROWS}`;
  const statement = `select ${TIMELINE_COLUMNS} from task_message where task_id = $1 and seq < $2 order by seq desc limit $3`;
  const lastSeq = Number((await database.query<{ seq: number }>('select max(seq) as seq from task_message where task_id = $1', [taskId])).rows[0]!.seq);
  const restPage = async (): Promise<number> => {
    const start = process.hrtime.bigint();
    const response = await fetch(url, { headers: { authorization: `Bearer ${gateway.token}` } });
    if (!response.ok) throw new Error(`first page: HTTP ${response.status} ${await response.text()}`);
    const page = JSON.parse(await response.text()) as TimelinePageView;
    const elapsed = elapsedMs(start);
    if (page.messages.length !== FIRST_PAGE_ROWS || page.nextSince !== lastSeq) throw new Error(`first page: ${page.messages.length} messages up to ${page.nextSince}, expected ${FIRST_PAGE_ROWS} up to ${lastSeq}`);
    return elapsed;
  };
  const rawPage = async (): Promise<number> => {
    const start = process.hrtime.bigint();
    const rows = (await database.query(statement, [taskId, 2 ** 31 - 1, FIRST_PAGE_ROWS])).rows.reverse();
    const elapsed = elapsedMs(start);
    if (rows.length !== FIRST_PAGE_ROWS) throw new Error(`raw keyset page: ${rows.length} rows`);
    return elapsed;
  };
  for (let warmUp = 0; warmUp < 10; warmUp += 1) {
    await restPage();
    await rawPage();
  }
  const rest: number[] = [];
  const raw: number[] = [];
  for (let sample = 0; sample < FIRST_PAGE_SAMPLES; sample += 1) {
    rest.push(await restPage());
    raw.push(await rawPage());
  }
  return { rows: FIRST_PAGE_ROWS, rest: summarizeLatencies(rest), rawKeysetPage: summarizeLatencies(raw) };
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function replayRows(figures: ReplayFigures): TableRow[] {
  return [...headlineReplayRows(figures), ...figures.scaling.map(replayScalingRow)];
}

function replayScalingRow(point: ReplayPoint): TableRow {
  return [
    `scaling: REST replay of ${point.messages} messages`,
    `${format(point.rest.seconds * 1000, 0)} ms (one select ${format(point.rawSingleSelect.seconds * 1000, 0)} ms)`,
    `${format(point.rest.messagesPerSecond, 0)} msgs/s`,
    `${format((point.rest.messagesPerSecond / point.rawSingleSelect.rowsPerSecond) * 100, 1)}% of one select`,
  ];
}

function headlineReplayRows(figures: ReplayFigures): TableRow[] {
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
    [`raw PG keyset page, newest ${figures.firstPage.rows} rows (baseline)`, latencyCell(figures.firstPage.rawKeysetPage), '', '1.00'],
    [
      `REST first page: newest ${figures.firstPage.rows} of ${figures.messages} (before=end)`,
      latencyCell(figures.firstPage.rest),
      '',
      `${ratioCell(figures.firstPage.rest.p50, figures.firstPage.rawKeysetPage.p50, 'p50 of the raw page')}`,
    ],
    [`  seeded: ${figures.seeding.events} task.message via JetStream`, `${format(figures.seeding.seconds, 1)} s until all are rows`, perSecond(figures.seeding.eventsPerSecond, 'events'), 'written by the transcript projector'],
  ];
}
