import { parseServerSentEvents, readServerSentEvents } from './server-sent-events.parser';

/** Decoded JSON from the wire; tests read its shape freely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the point of these helpers is loose access to wire shapes
export type WireJson = any;

/** A parsed SSE event with its data decoded as JSON (or kept as text, e.g. `[DONE]`). */
export interface DecodedServerSentEvent {
  readonly event: string | undefined;
  readonly data: WireJson;
}

export async function postJson(url: string, body: unknown, headers: { [name: string]: string } = {}): Promise<{ status: number; headers: Headers; json: WireJson }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, headers: response.headers, json: (await response.json()) as WireJson };
}

export async function postForEvents(url: string, body: unknown, headers: { [name: string]: string } = {}): Promise<{ status: number; contentType: string; events: DecodedServerSentEvent[] }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', events: parseServerSentEvents(text).map(decode) };
}

/**
 * Starts a streaming request, reads `eventsBeforeAbort` events, then aborts the connection as a
 * cancelled CLI would. Returns the events read.
 */
export async function readEventsThenDisconnect(options: { url: string; body: unknown; eventsBeforeAbort: number }): Promise<DecodedServerSentEvent[]> {
  const controller = new AbortController();
  const response = await fetch(options.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(options.body), signal: controller.signal });
  if (!response.body) throw new Error('streaming response without a body');
  const events: DecodedServerSentEvent[] = [];
  try {
    for await (const event of readServerSentEvents(response.body)) {
      events.push(decode(event));
      if (events.length >= options.eventsBeforeAbort) break;
    }
  } finally {
    controller.abort();
  }
  return events;
}

function decode(event: { event: string | undefined; data: string }): DecodedServerSentEvent {
  try {
    return { event: event.event, data: JSON.parse(event.data) as unknown };
  } catch {
    return { event: event.event, data: event.data };
  }
}
