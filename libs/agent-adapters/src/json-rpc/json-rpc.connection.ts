import type { JsonRpcErrorObject, JsonRpcFrame, JsonRpcId } from './json-rpc.types';

export const JSON_RPC_ERROR_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;

/** The peer answered a request with a JSON-RPC error. */
export class JsonRpcRemoteError extends Error {
  readonly code: number;
  readonly method: string;
  /** The error object as it travels on the wire. */
  readonly error: JsonRpcErrorObject;

  constructor(method: string, error: JsonRpcErrorObject) {
    super(`${method} failed (${error.code}): ${describeJsonRpcError(error)}`);
    this.name = 'JsonRpcRemoteError';
    this.code = error.code;
    this.method = method;
    this.error = error;
  }
}

/** The connection ended (peer exited, stdin closed) before the request was answered. */
export class JsonRpcConnectionClosedError extends Error {
  readonly isRetryable = false;

  constructor(reason: string, options?: { cause?: unknown }) {
    super(`the JSON-RPC connection closed: ${reason}`, options);
    this.name = 'JsonRpcConnectionClosedError';
  }
}

/** The peer's own words for an error: `data.details` or `data.message` when present. */
export function describeJsonRpcError(error: JsonRpcErrorObject): string {
  const data = error.data as { details?: unknown; message?: unknown } | undefined;
  const detail = typeof data?.details === 'string' ? data.details : typeof data?.message === 'string' ? data.message : undefined;
  return detail ? `${error.message}: ${detail}` : error.message;
}

export interface JsonRpcConnectionOptions {
  /** Writes one serialized frame plus newline to the peer; calls are already serialized. */
  readonly write: (line: string) => Promise<void>;
  /** Requests from the peer; the returned value is the result, a thrown `JsonRpcRemoteError` the error. */
  readonly onRequest?: (method: string, params: unknown) => unknown;
  readonly onNotification?: (method: string, params: unknown) => void;
  /** Every frame this side sends, after it was queued (for the translator and recordings). */
  readonly onFrameSent?: (frame: JsonRpcFrame) => void;
}

export interface JsonRpcConnection {
  request<TResult>(method: string, params?: unknown): Promise<TResult>;
  notify(method: string, params?: unknown): Promise<void>;
  /** Feeds one parsed frame read from the peer. Returns the method of the request a response answers. */
  receive(frame: unknown): string | undefined;
  /** Rejects every pending request and refuses new ones. Idempotent. */
  close(reason: string, cause?: unknown): void;
  /** Resolves with the reason once the connection is closed. */
  readonly closed: Promise<Error>;
}

interface PendingRequest {
  readonly method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

type IncomingFrame = { id?: JsonRpcId | null; method?: unknown; params?: unknown; result?: unknown; error?: JsonRpcErrorObject };

/** One connection: the requests pending by id, the tail of the write queue, and why it closed. */
interface ConnectionState {
  readonly options: JsonRpcConnectionOptions;
  readonly pending: Map<string, PendingRequest>;
  readonly resolveClosed: (error: Error) => void;
  nextId: number;
  closedWith: Error | undefined;
  writeTail: Promise<void>;
}

/**
 * JSON-RPC 2.0 over newline-delimited frames for Codex app-server (ACP uses the official SDK's
 * connection instead, see `acp/acp-client.stream.ts`): requests pending by id, one serialized
 * write queue, incoming requests and notifications dispatched to handlers.
 */
export function createJsonRpcConnection(options: JsonRpcConnectionOptions): JsonRpcConnection {
  let resolveClosed!: (error: Error) => void;
  const closed = new Promise<Error>((resolve) => (resolveClosed = resolve));
  const state: ConnectionState = { options, pending: new Map(), resolveClosed, nextId: 1, closedWith: undefined, writeTail: Promise.resolve() };
  return {
    request: <TResult>(method: string, params?: unknown): Promise<TResult> => request<TResult>(state, method, params),
    notify(method: string, params?: unknown): Promise<void> {
      return send(state, { jsonrpc: '2.0', method, ...(params !== undefined ? { params } : {}) });
    },
    receive: (frame: unknown): string | undefined => receive(state, frame),
    close: (reason: string, cause?: unknown): void => close(state, reason, cause),
    closed,
  };
}

/** Queues one frame behind the writes before it. */
function send(state: ConnectionState, frame: JsonRpcFrame): Promise<void> {
  if (state.closedWith) return Promise.reject(state.closedWith);
  const line = `${JSON.stringify(frame)}\n`;
  const written = state.writeTail.then(() => state.options.write(line));
  state.writeTail = written.catch(() => undefined);
  state.options.onFrameSent?.(frame);
  return written;
}

function request<TResult>(state: ConnectionState, method: string, params?: unknown): Promise<TResult> {
  if (state.closedWith) return Promise.reject(state.closedWith);
  const { pending } = state;
  const id = state.nextId++;
  const answered = new Promise<unknown>((resolve, reject) => {
    pending.set(String(id), { method, resolve, reject });
  });
  send(state, { jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) }).catch((error: unknown) => {
    const waiting = pending.get(String(id));
    pending.delete(String(id));
    waiting?.reject(error instanceof Error ? error : new Error(String(error)));
  });
  return answered as Promise<TResult>;
}

function receive(state: ConnectionState, frame: unknown): string | undefined {
  if (typeof frame !== 'object' || frame === null) return undefined;
  const message = frame as IncomingFrame;
  if (typeof message.method === 'string') {
    if (message.id !== undefined && message.id !== null) void answerRequest(state, message.id, message.method, message.params);
    else state.options.onNotification?.(message.method, message.params);
    return undefined;
  }
  if (message.id === undefined || message.id === null) return undefined;
  const waiting = state.pending.get(String(message.id));
  if (!waiting) return undefined;
  state.pending.delete(String(message.id));
  if (message.error) waiting.reject(new JsonRpcRemoteError(waiting.method, message.error));
  else waiting.resolve(message.result);
  return waiting.method;
}

/** Answers a request of the peer with what `onRequest` returns or throws. */
async function answerRequest(state: ConnectionState, id: JsonRpcId, method: string, params: unknown): Promise<void> {
  const { options } = state;
  const reply = await Promise.resolve()
    .then(() => {
      if (!options.onRequest) throw new JsonRpcRemoteError(method, { code: JSON_RPC_ERROR_CODES.methodNotFound, message: `Method not found: ${method}` });
      return options.onRequest(method, params);
    })
    .then(
      (result): JsonRpcFrame => ({ jsonrpc: '2.0', id, result: result ?? null }),
      (error: unknown): JsonRpcFrame => ({
        jsonrpc: '2.0',
        id,
        error:
          error instanceof JsonRpcRemoteError
            ? error.error
            : { code: JSON_RPC_ERROR_CODES.internalError, message: error instanceof Error ? error.message : String(error) },
      }),
    );
  if (state.closedWith) return;
  await send(state, reply).catch(() => undefined);
}

function close(state: ConnectionState, reason: string, cause?: unknown): void {
  if (state.closedWith) return;
  const closedWith = new JsonRpcConnectionClosedError(reason, cause !== undefined ? { cause } : undefined);
  state.closedWith = closedWith;
  for (const waiting of state.pending.values()) waiting.reject(closedWith);
  state.pending.clear();
  state.resolveClosed(closedWith);
}
