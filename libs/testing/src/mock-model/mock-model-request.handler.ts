import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { estimateTokens, type AnswerDecision, type ProviderErrorReply } from './answer.helpers';
import { encodeAnthropicError, encodeAnthropicMessagesJson, encodeAnthropicMessagesStream } from './anthropic-messages.encoder';
import { normalizeConversation } from './conversation.normalizer';
import type { EncodingContext, ModelApi, NormalizedConversation, TurnDecision } from './conversation.types';
import { encodeGeminiError, encodeGeminiJson, encodeGeminiModelList, encodeGeminiStream, encodeGeminiStreamChunks } from './gemini.encoder';
import { addRequest, nextSequence, updateRequest, type Mutable, type RecordedRequest, type RequestOutcome, type RequestRecorder } from './mock-model.recorder';
import { encodeOpenAiChatError, encodeOpenAiChatJson, encodeOpenAiChatStream, encodeOpenAiModelList } from './openai-chat.encoder';
import { encodeOpenAiError, encodeOpenAiResponsesJson, encodeOpenAiResponsesStream } from './openai-responses.encoder';
import { providerFailureReply } from './provider-failure.replies';
import { writeServerSentEvents, type ServerSentEvent } from './sse.writer';
import { decideTurn } from './turn.decider';

const REDACTED_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'cookie']);
const MAXIMUM_BODY_BYTES = 64 * 1024 * 1024;
const GEMINI_PATH = /^\/(?:v1beta|v1alpha|v1)\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/;

/** What every request is answered with: the default model, the log, and the record of requests. */
export interface MockModelState {
  readonly defaultModel: string;
  readonly log: (line: string) => void;
  readonly recorder: RequestRecorder;
  /** Keys of `error-once` markers already answered with their failure. */
  readonly spentOnceKeys: Set<string>;
}

/** One request being answered. */
interface Exchange {
  readonly server: MockModelState;
  readonly incoming: IncomingMessage;
  readonly response: ServerResponse;
  readonly url: URL;
  readonly rawBody: Buffer;
  readonly record: Mutable<RecordedRequest>;
}

type Route =
  | { readonly kind: 'health' | 'not-found' }
  | { readonly kind: 'model-list'; readonly gemini: boolean }
  | { readonly kind: 'count-tokens'; readonly api: ModelApi }
  | { readonly kind: 'model'; readonly api: ModelApi; readonly model: string | undefined; readonly stream: boolean | undefined };

type ModelRoute = Extract<Route, { kind: 'model' }>;

/** Records the request (in `current` too, for the failure path), routes it and answers it. */
export async function handleMockModelRequest(
  server: MockModelState,
  incoming: IncomingMessage,
  response: ServerResponse,
  current: { record?: Mutable<RecordedRequest> },
): Promise<void> {
  const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
  const rawBody = await readBody(incoming);
  const record = newRecord({ server, incoming, url, rawBody });
  current.record = record;
  addRequest(server.recorder, record);
  const route = routeOf(record.method, url.pathname);
  server.log(`mock-model #${record.sequence} ${record.method} ${url.pathname}${url.search.replace(/([?&]key=)[^&]*/, '$1<redacted>')} -> ${route.kind}`);
  const exchange: Exchange = { server, incoming, response, url, rawBody, record };
  if (route.kind === 'model') return answerModelTurn(exchange, route);
  answerServiceRoute(exchange, route);
}

function newRecord(input: { readonly server: MockModelState; readonly incoming: IncomingMessage; readonly url: URL; readonly rawBody: Buffer }): Mutable<RecordedRequest> {
  const { incoming, url } = input;
  return {
    sequence: nextSequence(input.server.recorder),
    receivedAt: new Date(),
    method: incoming.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries([...url.searchParams.entries()].filter(([name]) => name !== 'key')),
    headers: recordableHeaders(incoming),
    body: parseBody(input.rawBody),
    api: undefined,
    decision: undefined,
    status: undefined,
    outcome: 'pending',
  };
}

const finish = (exchange: Exchange, status: number, outcome: RequestOutcome): void => updateRequest(exchange.server.recorder, exchange.record, { status, outcome });

/** Everything but a model turn: health, model lists, token counts, unknown routes. */
function answerServiceRoute(exchange: Exchange, route: Exclude<Route, ModelRoute>): void {
  const { response, record, server } = exchange;
  switch (route.kind) {
    case 'health':
      response.writeHead(200, { 'content-type': 'text/plain' }).end(record.method === 'HEAD' ? undefined : 'ok');
      return finish(exchange, 200, 'completed');
    case 'model-list': {
      const anthropic = exchange.incoming.headers['anthropic-version'] !== undefined;
      const { defaultModel } = server;
      const body = route.gemini
        ? encodeGeminiModelList([defaultModel])
        : anthropic
          ? { data: [{ type: 'model', id: defaultModel, display_name: defaultModel, created_at: new Date(0).toISOString() }], has_more: false, first_id: defaultModel, last_id: defaultModel }
          : encodeOpenAiModelList([defaultModel], nowSeconds());
      sendJson(response, 200, body);
      return finish(exchange, 200, 'completed');
    }
    case 'count-tokens': {
      const tokens = estimateTokens(exchange.rawBody.toString('utf8'));
      sendJson(response, 200, route.api === 'gemini' ? { totalTokens: tokens } : { input_tokens: tokens });
      return finish(exchange, 200, 'completed');
    }
    case 'not-found':
      sendJson(response, 404, { error: { message: `The mock model server has no route for ${record.method} ${exchange.url.pathname}.` } });
      return finish(exchange, 404, 'completed');
  }
}

/** Decides the turn from the conversation and answers it in the API's shape: JSON, a JSON array (Gemini) or SSE. */
async function answerModelTurn(exchange: Exchange, route: ModelRoute): Promise<void> {
  const { server, response, record } = exchange;
  record.api = route.api;
  if (typeof record.body !== 'object' || record.body === null) {
    const reply = errorEncoder(route.api)(400, 'The mock model server expects a JSON request body.');
    sendJson(response, reply.status, reply.body);
    return finish(exchange, reply.status, 'completed');
  }
  const conversation = normalizeConversation({ api: route.api, body: record.body, model: route.model ?? server.defaultModel, stream: route.stream });
  const decision = decideTurn(conversation, server.spentOnceKeys);
  updateRequest(server.recorder, record, { decision });
  server.log(`mock-model #${record.sequence} ${route.api} decided ${describe(decision)}`);
  if (decision.kind === 'error') return answerProviderFailure(exchange, route.api, decision);
  const context = encodingContextOf({ conversation, decision, rawBody: exchange.rawBody });
  if (!conversation.stream) {
    sendJson(response, 200, jsonEncoder(route.api)(decision, context));
    return finish(exchange, 200, 'completed');
  }
  if (route.api === 'gemini' && exchange.url.searchParams.get('alt') !== 'sse') {
    sendJson(response, 200, encodeGeminiStreamChunks(decision, context).map(({ chunk }) => chunk));
    return finish(exchange, 200, 'completed');
  }
  const outcome = await writeServerSentEvents({ response, events: streamEncoder(route.api)(decision, context) });
  if (outcome === 'client-disconnected') server.log(`mock-model #${record.sequence} client disconnected mid-stream`);
  finish(exchange, 200, outcome);
}

/** A scripted failure: the provider's error reply, or a connection destroyed without one. */
function answerProviderFailure(exchange: Exchange, api: ModelApi, decision: Extract<TurnDecision, { kind: 'error' }>): void {
  if (decision.onceKey !== undefined) exchange.server.spentOnceKeys.add(decision.onceKey);
  if (decision.failure === 'connection-reset') {
    exchange.response.socket?.resetAndDestroy();
    return finish(exchange, decision.status, 'failed');
  }
  const reply = providerFailureReply(api, decision);
  sendJson(exchange.response, reply.status, reply.body, reply.headers);
  finish(exchange, reply.status, 'completed');
}

function encodingContextOf(input: { readonly conversation: NormalizedConversation; readonly decision: AnswerDecision; readonly rawBody: Buffer }): EncodingContext {
  const { decision } = input;
  return {
    model: input.conversation.model,
    usage: { inputTokens: estimateTokens(input.rawBody.toString('utf8')), outputTokens: estimateTokens(decision.kind === 'tool-call' ? JSON.stringify(decision.arguments) : decision.text) },
    createdAtSeconds: nowSeconds(),
    newId: (prefix) => `${prefix}${randomUUID().replace(/-/g, '').slice(0, 24)}`,
  };
}

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

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: { [name: string]: string } = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
