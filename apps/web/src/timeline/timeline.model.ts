import type { ActivityMessage, TimelineEntry } from './timeline.types';

/** One thing the timeline shows, built from rows in seq order. */
export type TimelineItem =
  /** Adjacent text (or thinking) rows of one attempt, merged: streamed blocks read as one. */
  | { readonly kind: 'text' | 'thinking'; readonly key: string; readonly attempt: number; readonly seqs: readonly number[]; readonly content: string }
  /** A tool call with its result once it came (paired by call id): shown collapsible. */
  | {
      readonly kind: 'tool';
      readonly key: string;
      readonly attempt: number;
      readonly seq: number;
      readonly callId: string | null;
      readonly tool: string;
      readonly input: unknown;
      readonly result: { readonly seq: number; readonly output: string; readonly status: 'ok' | 'error' | null; readonly truncated: boolean } | undefined;
    }
  | { readonly kind: 'error'; readonly key: string; readonly attempt: number; readonly seq: number; readonly code: string | null; readonly content: string }
  | { readonly kind: 'notice'; readonly key: string; readonly attempt: number; readonly seq: number; readonly code: string | null; readonly content: string }
  | { readonly kind: 'status'; readonly key: string; readonly seq: number; readonly text: string };

/** Token use per model, the latest total each reported. */
export interface ModelUsage {
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** A task's timeline as far as the client has it: every seq once, and what it reads as. */
export interface TimelineState {
  readonly items: readonly TimelineItem[];
  /** The highest seq received (row or activity): a reconnect resumes after it. */
  readonly lastSeq: number;
  readonly seen: ReadonlySet<number>;
  readonly usage: readonly ModelUsage[];
}

export const EMPTY_TIMELINE: TimelineState = { items: [], lastSeq: -1, seen: new Set(), usage: [] };

/**
 * Adds one row. Idempotent by seq (a row seen before, after a reconnect or from REST and the
 * socket both, changes nothing); rows arrive in seq order, so a text row continues the previous
 * item when that is text of the same kind and attempt with no other row between.
 */
export function withEntry(state: TimelineState, entry: TimelineEntry): TimelineState {
  if (state.seen.has(entry.seq)) return state;
  const seen = new Set(state.seen).add(entry.seq);
  const lastSeq = Math.max(state.lastSeq, entry.seq);
  const items = [...state.items];
  const last = items.at(-1);
  switch (entry.type) {
    case 'text':
    case 'thinking': {
      if (last && last.kind === entry.type && last.attempt === entry.attempt) {
        items[items.length - 1] = { ...last, seqs: [...last.seqs, entry.seq], content: `${last.content}${entry.content ?? ''}` };
      } else {
        items.push({ kind: entry.type, key: `row-${entry.seq}`, attempt: entry.attempt, seqs: [entry.seq], content: entry.content ?? '' });
      }
      break;
    }
    case 'tool_use':
      items.push({ kind: 'tool', key: `row-${entry.seq}`, attempt: entry.attempt, seq: entry.seq, callId: entry.callId, tool: entry.tool ?? 'tool', input: entry.input, result: undefined });
      break;
    case 'tool_result': {
      const result = { seq: entry.seq, output: entry.output ?? '', status: entry.toolStatus, truncated: entry.outputTruncated };
      const index = findLastIndex(items, (item) => item.kind === 'tool' && item.callId !== null && item.callId === entry.callId && item.result === undefined);
      const call = index === -1 ? undefined : items[index];
      if (call && call.kind === 'tool') items[index] = { ...call, result };
      else items.push({ kind: 'tool', key: `row-${entry.seq}`, attempt: entry.attempt, seq: entry.seq, callId: entry.callId, tool: entry.tool ?? 'tool', input: null, result });
      break;
    }
    case 'error':
      items.push({ kind: 'error', key: `row-${entry.seq}`, attempt: entry.attempt, seq: entry.seq, code: entry.errorCode, content: entry.content ?? '' });
      break;
    case 'notice':
      items.push({ kind: 'notice', key: `row-${entry.seq}`, attempt: entry.attempt, seq: entry.seq, code: entry.noticeCode, content: entry.content ?? '' });
      break;
  }
  return { ...state, items, seen, lastSeq };
}

/** Adds one activity message: a status change becomes a status item, usage updates the totals; idempotent by seq. */
export function withActivity(state: TimelineState, seq: number, message: ActivityMessage): TimelineState {
  if (state.seen.has(seq)) return state;
  const next = { ...state, seen: new Set(state.seen).add(seq), lastSeq: Math.max(state.lastSeq, seq) };
  if (message.type === 'usage' && typeof message['model'] === 'string') {
    const usage: ModelUsage = { model: message['model'], inputTokens: numberOf(message['inputTokens']), outputTokens: numberOf(message['outputTokens']) };
    return { ...next, usage: [...state.usage.filter((entry) => entry.model !== usage.model), usage] };
  }
  if (message.type === 'status') {
    const text = [message['state'], message['progress']].filter((part) => typeof part === 'string' && part !== '').join(': ');
    if (text !== '') return { ...next, items: [...state.items, { kind: 'status', key: `activity-${seq}`, seq, text }] };
  }
  return next;
}

function numberOf(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index -= 1) if (predicate(items[index]!)) return index;
  return -1;
}
