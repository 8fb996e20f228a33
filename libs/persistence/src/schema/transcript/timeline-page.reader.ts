import type { SqlRunner } from '../sql-runner';
import { timelineEntryJson } from './timeline-entry.json';
import { timelineEntryOfRow, TIMELINE_ROW_COLUMNS, type StoredTimelineRow } from './timeline.reader';

/** A page of a task's timeline as the JSON text of its `TimelineEntry` array, in seq order. */
export interface TimelineJsonPage {
  /** `[...]`: each row's stored `entry_json`, or the same text built from its columns. */
  readonly entriesJson: string;
  readonly count: number;
  /** Seq of the page's last row; null when the page is empty. */
  readonly lastSeq: number | null;
  /** Rows with a higher seq than the page's last one (than the window's bound when empty) exist. */
  readonly hasMore: boolean;
}

/** The first `limit` rows after `afterSeq`, or the last `limit` rows below `beforeSeq` (null: the end). */
export type TimelineWindow =
  | { readonly taskId: string; readonly afterSeq: number; readonly limit: number }
  | { readonly taskId: string; readonly beforeSeq: number | null; readonly limit: number };

interface PageRow {
  seq: number;
  entry_json: string | null;
}

// Rows, not one `string_agg`: a 1 MB aggregate costs Postgres and the driver several times what
// the same bytes cost as rows (measured: ~4x per 1,000-row page), and joining them here is cheap.
// Through the keyset functions, which can only walk the (task_id, seq) index (their migration says why).
const AFTER_SEQ = 'select seq, entry_json from timeline_rows_after($1, $2, $3)';
// Backwards; seq is an int4, the bound an int8, so "the end" (2^31) is past any seq.
const BEFORE_SEQ = 'select seq, entry_json from timeline_rows_before($1, $2::bigint, $3)';
const ANY_FROM_SEQ = 'select exists (select 1 from task_message where task_id = $1 and seq >= $2::bigint) as found';

const END_OF_TIMELINE = 2 ** 31;

/**
 * A page of a task's `task_message` rows as the API's JSON: keyset by seq either way, so the last
 * page of a long timeline costs what the first one does. Callers check the workspace first.
 */
export async function readTimelinePageJson(runner: SqlRunner, window: TimelineWindow): Promise<TimelineJsonPage> {
  const { rows, hasMore } = 'afterSeq' in window ? await rowsAfter(runner, window) : await rowsBefore(runner, window);
  if (rows.length === 0) return { entriesJson: '[]', count: 0, lastSeq: null, hasMore };
  const texts = rows.some((row) => row.entry_json === null) ? await entriesFromColumns(runner, window.taskId, rows) : rows.map((row) => row.entry_json);
  return { entriesJson: `[${texts.join(',')}]`, count: texts.length, lastSeq: rows[rows.length - 1]!.seq, hasMore };
}

async function rowsAfter(runner: SqlRunner, window: { readonly taskId: string; readonly afterSeq: number; readonly limit: number }): Promise<{ rows: PageRow[]; hasMore: boolean }> {
  const rows = await runner.query<PageRow[]>(AFTER_SEQ, [window.taskId, window.afterSeq, window.limit + 1]);
  const hasMore = rows.length > window.limit;
  if (hasMore) rows.length = window.limit;
  return { rows, hasMore };
}

async function rowsBefore(runner: SqlRunner, window: { readonly taskId: string; readonly beforeSeq: number | null; readonly limit: number }): Promise<{ rows: PageRow[]; hasMore: boolean }> {
  const bound = window.beforeSeq ?? END_OF_TIMELINE;
  const rows = (await runner.query<PageRow[]>(BEFORE_SEQ, [window.taskId, bound, window.limit])).reverse();
  // Rows after the page are the rows from the bound on: none past the end.
  const hasMore = window.beforeSeq !== null && (await runner.query<Array<{ found: boolean }>>(ANY_FROM_SEQ, [window.taskId, bound]))[0]?.found === true;
  return { rows, hasMore };
}

/** Rows without a stored text (most written before `entry_json` existed): built from their columns, as replay always did. */
async function entriesFromColumns(runner: SqlRunner, taskId: string, page: readonly PageRow[]): Promise<string[]> {
  const missing = page.filter((row) => row.entry_json === null).map((row) => row.seq);
  const rows = await runner.query<StoredTimelineRow[]>(`select ${TIMELINE_ROW_COLUMNS} from task_message where task_id = $1 and seq = any($2::int[])`, [taskId, missing]);
  const built = new Map(rows.map((row) => [row.seq, timelineEntryJson(timelineEntryOfRow(row))]));
  // A row gone meanwhile (a rebuild truncated the view) is left out, as a later read would.
  return page.flatMap((row) => row.entry_json ?? built.get(row.seq) ?? []);
}
