import type { JsonValue, TimelineEntry } from '@switchyard/contracts';

/**
 * The text a REST page carries for one timeline entry: `JSON.stringify` of the entry with its keys
 * in the order the reader has always returned them (the `TimelineEntry` order) and `createdAt` as
 * an ISO instant. Stored by the transcript projector in `task_message.entry_json`, so a read joins
 * texts; the reader builds it the same way for rows that have none.
 */
export function timelineEntryJson(entry: TimelineEntry): string {
  return JSON.stringify({
    id: entry.id,
    taskId: entry.taskId,
    seq: entry.seq,
    attempt: entry.attempt,
    type: entry.type,
    tool: entry.tool,
    callId: entry.callId,
    content: entry.content,
    input: entry.input === null ? null : inJsonbOrder(entry.input),
    output: entry.output,
    outputTruncated: entry.outputTruncated,
    toolStatus: entry.toolStatus,
    errorCode: entry.errorCode,
    noticeCode: entry.noticeCode,
    createdAt: new Date(entry.createdAt).toISOString(),
  });
}

/**
 * The value as it comes back out of a `jsonb` column: object keys shortest first, then by their
 * UTF-8 bytes. Replay has always returned `input` that way (read from `jsonb`), and a stored text
 * must not reorder what a client saw before.
 */
export function inJsonbOrder(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(inJsonbOrder);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).map((key) => ({ key, bytes: Buffer.from(key, 'utf8') }));
  keys.sort((left, right) => left.bytes.length - right.bytes.length || Buffer.compare(left.bytes, right.bytes));
  // No prototype: a `__proto__` key stays a key, as JSON.parse makes it.
  const ordered = Object.create(null) as Record<string, JsonValue>;
  for (const { key } of keys) ordered[key] = inJsonbOrder(value[key]!);
  return ordered;
}
