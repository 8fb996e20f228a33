import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { estimateTokens, type AnswerDecision, type ProviderErrorReply } from './answer.helpers';
import { encodeAnthropicError, encodeAnthropicMessagesJson, encodeAnthropicMessagesStream } from './anthropic-messages.encoder';
import { normalizeConversation } from './conversation.normalizer';
import type { EncodingContext, ModelApi, TurnDecision } from './conversation.types';
import { encodeGeminiError, encodeGeminiJson, encodeGeminiModelList, encodeGeminiStream, encodeGeminiStreamChunks } from './gemini.encoder';
import { encodeOpenAiChatError, encodeOpenAiChatJson, encodeOpenAiChatStream, encodeOpenAiModelList } from './openai-chat.encoder';
import { encodeOpenAiError, encodeOpenAiResponsesJson, encodeOpenAiResponsesStream } from './openai-responses.encoder';
import { writeServerSentEvents, type ServerSentEvent } from './sse.writer';
import { decideTurn } from './turn.decider';

export const DEFAULT_MOCK_MODEL = 'mock-model';

export interface MockModelServerOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Model named in replies when a request names none, and listed by the model endpoints. */
  readonly defaultModel?: string;
  /** Receives one line per request and per notable event (client disconnects, failures). */
  readonly log?: (line: string) => void;
}

export type RequestOutcome = 'pending' | 'completed' | 'client-disconnected' | 'failed';

/** One request as the server saw it; `outcome` and `status` fill in as the reply goes out. */
export interface RecordedRequest {
  readonly sequence: number;
  readonly receivedAt: Date;
  readonly method: string;
  /** Path without the query. */
  readonly path: string;
  /** Query parameters, without `key` (Gemini's API key). */
  readonly query: { readonly [name: string]: string };
  /** Lower-case header names; credentials removed. */
  readonly headers: { readonly [name: string]: string };
  /** Parsed JSON body, the raw text when it is not JSON, undefined when empty. */
  readonly body: unknown;
  readonly api: ModelApi | undefined;
  readonly decision: TurnDecision | undefined;
  readonly status: number | undefined;
  readonly outcome: RequestOutcome;
}

export interface MockModelServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash or `/v1`. */
  readonly url: string;
  readonly port: number;
  requests(): RecordedRequest[];
  reset(): void;
  /** Resolves with the first request (already seen or still to come, including outcome changes) that matches. */
  waitForRequest(predicate: (request: RecordedRequest) => boolean, timeoutMilliseconds?: number): Promise<RecordedRequest>;
  stop(): Promise<void>;
}

const REDACTED_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'cookie']);
const MAXIMUM_BODY_BYTES = 64 * 1024 * 1024;
const DEFAULT_WAIT_MILLISECONDS = 10_000;
const GEMINI_PATH = /^\/(?:v1beta|v1alpha|v1)\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Starts the scripted mock of the Anthropic Messages, OpenAI Responses / Chat Completions and Gemini APIs on 127.0.0.1. */
export async function startMockModelServer(options: MockModelServerOptions = {}): Promise<MockModelServer> {
  const defaultModel = options.defaultModel ?? DEFAULT_MOCK_MODEL;
  const log = options.log ?? ((): void => undefined);
  let recorded: Array<Mutable<RecordedRequest>> = [];
  let sequence = 0;
  const waiters = new Set<{
    predicate: (request: RecordedRequest) => boolean;
    resolve: (request: RecordedRequest) => void;
    reject: (error: Error) => void;
  }>();

  const snapshot = (request: RecordedRequest): RecordedRequest => ({ ...request });
  const notify = (request: Mutable<RecordedRequest>): void => {
    for (const waiter of [...waiters]) {
      if (!waiter.predicate(snapshot(request))) continue;
      waiters.delete(waiter);
      waiter.resolve(snapshot(request));
    }
  };
  const update = (request: Mutable<RecordedRequest>, change: Partial<Mutable<RecordedRequest>>): void => {
    Object.assign(request, change);
    notify(request);
  };

  const handle = async (incoming: IncomingMessage, response: ServerResponse, current: { record?: Mutable<RecordedRequest> }): Promise<void> => {
    const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
    const rawBody = await readBody(incoming);
    const record: Mutable<RecordedRequest> = {
      sequence: (sequence += 1),
      receivedAt: new Date(),
      method: incoming.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries([...url.searchParams.entries()].filter(([name]) => name !== 'key')),
      headers: recordableHeaders(incoming),
      body: parseBody(rawBody),
      api: undefined,
      decision: undefined,
      status: undefined,
      outcome: 'pending',
    };
    current.record = record;
    recorded.push(record);
    notify(record);
    const route = routeOf(record.method, url.pathname);
    log(`mock-model #${record.sequence} ${record.method} ${url.pathname}${url.search.replace(/([?&]key=)[^&]*/, '$1<redacted>')} -> ${route.kind}`);
    const finish = (status: number, outcome: RequestOutcome): void => update(record, { status, outcome });

    switch (route.kind) {
      case 'health':
        response.writeHead(200, { 'content-type': 'text/plain' }).end(record.method === 'HEAD' ? undefined : 'ok');
        return finish(200, 'completed');
      case 'model-list': {
        const anthropic = incoming.headers['anthropic-version'] !== undefined;
        const body = route.gemini
          ? encodeGeminiModelList([defaultModel])
          : anthropic
            ? { data: [{ type: 'model', id: defaultModel, display_name: defaultModel, created_at: new Date(0).toISOString() }], has_more: false, first_id: defaultModel, last_id: defaultModel }
            : encodeOpenAiModelList([defaultModel], nowSeconds());
        sendJson(response, 200, body);
        return finish(200, 'completed');
      }
      case 'count-tokens': {
        const tokens = estimateTokens(rawBody.toString('utf8'));
        sendJson(response, 200, route.api === 'gemini' ? { totalTokens: tokens } : { input_tokens: tokens });
        return finish(200, 'completed');
      }
      case 'not-found':
        sendJson(response, 404, { error: { message: `The mock model server has no route for ${record.method} ${url.pathname}.` } });
        return finish(404, 'completed');
      case 'model':
        break;
    }

    record.api = route.api;
    if (typeof record.body !== 'object' || record.body === null) {
      const reply = errorEncoder(route.api)(400, 'The mock model server expects a JSON request body.');
      sendJson(response, reply.status, reply.body);
      return finish(reply.status, 'completed');
    }
    const conversation = normalizeConversation({ api: route.api, body: record.body, model: route.model ?? defaultModel, stream: route.stream });
    const decision = decideTurn(conversation);
    update(record, { decision });
    log(`mock-model #${record.sequence} ${route.api} decided ${describe(decision)}`);
    if (decision.kind === 'error') {
      const reply = errorEncoder(route.api)(decision.status, decision.message);
      // Both SDKs (Anthropic, OpenAI) honour this header; without it they retry 5xx and 429 for a while.
      sendJson(response, reply.status, reply.body, { 'x-should-retry': 'false' });
      return finish(reply.status, 'completed');
    }
    const context: EncodingContext = {
      model: conversation.model,
      usage: { inputTokens: estimateTokens(rawBody.toString('utf8')), outputTokens: estimateTokens(decision.kind === 'tool-call' ? JSON.stringify(decision.arguments) : decision.text) },
      createdAtSeconds: nowSeconds(),
      newId: (prefix) => `${prefix}${randomUUID().replace(/-/g, '').slice(0, 24)}`,
    };
    if (!conversation.stream) {
      sendJson(response, 200, jsonEncoder(route.api)(decision, context));
      return finish(200, 'completed');
    }
    if (route.api === 'gemini' && url.searchParams.get('alt') !== 'sse') {
      sendJson(response, 200, encodeGeminiStreamChunks(decision, context).map(({ chunk }) => chunk));
      return finish(200, 'completed');
    }
    const outcome = await writeServerSentEvents({ response, events: streamEncoder(route.api)(decision, context) });
    if (outcome === 'client-disconnected') log(`mock-model #${record.sequence} client disconnected mid-stream`);
    finish(200, outcome);
  };

  const server = createServer((incoming, response) => {
    const current: { record?: Mutable<RecordedRequest> } = {};
    handle(incoming, response, current).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      log(`mock-model failed on ${incoming.method ?? ''} ${incoming.url ?? ''}: ${message}`);
      if (current.record) update(current.record, { status: 500, outcome: 'failed' });
      if (!response.headersSent) sendJson(response, 500, { error: { message: `Mock model server failure: ${message}` } });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: () => recorded.map(snapshot),
    reset: () => {
      recorded = [];
    },
    waitForRequest: (predicate, timeoutMilliseconds = DEFAULT_WAIT_MILLISECONDS) => {
      const seen = recorded.find((request) => predicate(snapshot(request)));
      if (seen) return Promise.resolve(snapshot(seen));
      return new Promise<RecordedRequest>((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (request: RecordedRequest) => {
            clearTimeout(timer);
            resolve(request);
          },
          reject: (error: Error) => {
            clearTimeout(timer);
            reject(error);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`No matching mock model request within ${timeoutMilliseconds} ms (${recorded.length} recorded).`));
        }, timeoutMilliseconds);
        waiters.add(waiter);
      });
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        for (const waiter of waiters) waiter.reject(new Error('The mock model server stopped before a matching request arrived.'));
        waiters.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

type Route =
  | { readonly kind: 'health' | 'not-found' }
  | { readonly kind: 'model-list'; readonly gemini: boolean }
  | { readonly kind: 'count-tokens'; readonly api: ModelApi }
  | { readonly kind: 'model'; readonly api: ModelApi; readonly model: string | undefined; readonly stream: boolean | undefined };

/** Routes with and without the `/v1` prefix, as base URLs are configured either way. */
export function routeOf(method: string, path: string): Route {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if ((method === 'HEAD' || method === 'GET') && trimmed === '/') return { kind: 'health' };
  if (method === 'GET' && /^(\/v1)?\/models$/.test(trimmed)) return { kind: 'model-list', gemini: false };
  if (method === 'GET' && /^\/(v1beta|v1alpha)\/models$/.test(trimmed)) return { kind: 'model-list', gemini: true };
  if (method !== 'POST') return { kind: 'not-found' };
  if (/^(\/v1)?\/messages$/.test(trimmed)) return { kind: 'model', api: 'anthropic-messages', model: undefined, stream: undefined };
  if (/^(\/v1)?\/messages\/count_tokens$/.test(trimmed)) return { kind: 'count-tokens', api: 'anthropic-messages' };
  if (/^(\/v1)?\/responses$/.test(trimmed)) return { kind: 'model', api: 'openai-responses', model: undefined, stream: undefined };
  if (/^(\/v1)?\/chat\/completions$/.test(trimmed)) return { kind: 'model', api: 'openai-chat', model: undefined, stream: undefined };
  const gemini = GEMINI_PATH.exec(trimmed);
  if (gemini?.[2] === 'countTokens') return { kind: 'count-tokens', api: 'gemini' };
  if (gemini) return { kind: 'model', api: 'gemini', model: decodeURIComponent(gemini[1] ?? ''), stream: gemini[2] === 'streamGenerateContent' };
  return { kind: 'not-found' };
}

function streamEncoder(api: ModelApi): (decision: AnswerDecision, context: EncodingContext) => ServerSentEvent[] {
  switch (api) {
    case 'anthropic-messages':
      return encodeAnthropicMessagesStream;
    case 'openai-responses':
      return encodeOpenAiResponsesStream;
    case 'openai-chat':
      return encodeOpenAiChatStream;
    case 'gemini':
      return encodeGeminiStream;
  }
}

function jsonEncoder(api: ModelApi): (decision: AnswerDecision, context: EncodingContext) => unknown {
  switch (api) {
    case 'anthropic-messages':
      return encodeAnthropicMessagesJson;
    case 'openai-responses':
      return encodeOpenAiResponsesJson;
    case 'openai-chat':
      return encodeOpenAiChatJson;
    case 'gemini':
      return encodeGeminiJson;
  }
}

function errorEncoder(api: ModelApi): (status: number, message: string) => ProviderErrorReply {
  switch (api) {
    case 'anthropic-messages':
      return encodeAnthropicError;
    case 'openai-responses':
      return encodeOpenAiError;
    case 'openai-chat':
      return encodeOpenAiChatError;
    case 'gemini':
      return encodeGeminiError;
  }
}

function describe(decision: TurnDecision): string {
  switch (decision.kind) {
    case 'text':
      return `text (${decision.deltas.length} deltas${decision.deltaIntervalMilliseconds > 0 ? `, every ${Math.round(decision.deltaIntervalMilliseconds)} ms` : ''})`;
    case 'tool-call':
      return `tool call ${decision.tool.name}: ${decision.command ?? JSON.stringify(decision.arguments)}`;
    case 'json':
      return `json ${decision.text}`;
    case 'error':
      return `error ${decision.status}`;
  }
}

async function readBody(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAXIMUM_BODY_BYTES) throw new Error(`request body over ${MAXIMUM_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  const body = Buffer.concat(chunks);
  switch (incoming.headers['content-encoding']) {
    case 'gzip':
      return gunzipSync(body);
    case 'deflate':
      return inflateSync(body);
    case 'br':
      return brotliDecompressSync(body);
    default:
      return body;
  }
}

function parseBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function recordableHeaders(incoming: IncomingMessage): { [name: string]: string } {
  const headers: { [name: string]: string } = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || REDACTED_HEADERS.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: { [name: string]: string } = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
