/** JSON-RPC 2.0 error codes this side produces or branches on. */
export const JSON_RPC_ERROR_CODES = {
  invalidRequest: -32600,
  methodNotFound: -32601,
  internalError: -32603,
} as const;

export type JsonRpcId = number | string;

/** The error object of a JSON-RPC error response. */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** The peer answered a request with a JSON-RPC error. */
export class JsonRpcResponseError extends Error {
  readonly code: number;
  readonly data: unknown;
  readonly method: string;

  constructor(input: { method: string; error: JsonRpcErrorObject }) {
    super(input.error.message);
    this.name = 'JsonRpcResponseError';
    this.code = input.error.code;
    this.data = input.error.data;
    this.method = input.method;
  }
}

/** The connection ended (the peer exited, or the caller closed it) before the answer came. */
export class JsonRpcConnectionClosedError extends Error {
  readonly isRetryable = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'JsonRpcConnectionClosedError';
  }
}

/** What `receive` recognised a frame as, so the caller can route the rest. */
export type JsonRpcFrameKind = 'response' | 'notification' | 'request' | 'unknown';

/** A request from the peer: the handler's value is sent as the result; a thrown `JsonRpcResponseError` as the error. */
export type JsonRpcRequestHandler = (method: string, params: unknown) => unknown;

export interface JsonRpcConnectionOptions {
  /** Writes one serialized frame (without the newline); writes are queued, one at a time. */
  readonly write: (line: string) => Promise<void>;
  readonly onRequest?: JsonRpcRequestHandler;
  readonly onNotification?: (method: string, params: unknown) => void;
  /** Codex omits `"jsonrpc": "2.0"`; strict peers want it. */
  readonly includeVersion?: boolean;
}

export interface JsonRpcConnection {
  request<Result = unknown>(method: string, params?: unknown): Promise<Result>;
  notify(method: string, params?: unknown): Promise<void>;
  /** Feeds one parsed frame from the peer. */
  receive(frame: unknown): JsonRpcFrameKind;
  /** Rejects every pending request with the reason; later requests fail at once. Idempotent. */
  close(reason: Error): void;
  /** Resolves with the reason once the connection is closed. */
  readonly closed: Promise<Error>;
}

interface PendingRequest {
  readonly method: string;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One JSON-RPC connection over a line-oriented transport: pending requests by id, one serialized
 * write queue, requests and notifications from the peer dispatched to handlers, and a `closed`
 * promise. The transport (stdio of a child) stays outside: frames come in through `receive`.
 */
export function createJsonRpcConnection(options: JsonRpcConnectionOptions): JsonRpcConnection {
  const pending = new Map<JsonRpcId, PendingRequest>();
  let nextId = 1;
  let closedReason: Error | undefined;
  let writeQueue: Promise<void> = Promise.resolve();
  let resolveClosed: (reason: Error) => void = () => undefined;
  const closed = new Promise<Error>((resolve) => {
    resolveClosed = resolve;
  });

  const envelope = (frame: Record<string, unknown>): Record<string, unknown> => (options.includeVersion ? { jsonrpc: '2.0', ...frame } : frame);

  const send = (frame: Record<string, unknown>): Promise<void> => {
    const line = JSON.stringify(envelope(frame));
    const written = writeQueue.then(() => {
      if (closedReason) throw new JsonRpcConnectionClosedError(`cannot write: ${closedReason.message}`, { cause: closedReason });
      return options.write(line);
    });
    // The queue continues after a failed write; the failure belongs to the one caller.
    writeQueue = written.catch(() => undefined);
    return written;
  };

  const close = (reason: Error): void => {
    if (closedReason) return;
    closedReason = reason;
    for (const [id, request] of pending) {
      pending.delete(id);
      request.reject(new JsonRpcConnectionClosedError(`${request.method} got no answer: ${reason.message}`, { cause: reason }));
    }
    resolveClosed(reason);
  };

  const answerRequest = (id: JsonRpcId, method: string, params: unknown): void => {
    Promise.resolve()
      .then(() => {
        if (!options.onRequest) throw new JsonRpcResponseError({ method, error: { code: JSON_RPC_ERROR_CODES.methodNotFound, message: `unsupported request ${method}` } });
        return options.onRequest(method, params);
      })
      .then(
        (result: unknown) => send({ id, result: result ?? null }),
        (error: unknown) => {
          const rpcError: JsonRpcErrorObject =
            error instanceof JsonRpcResponseError
              ? { code: error.code, message: error.message }
              : { code: JSON_RPC_ERROR_CODES.internalError, message: error instanceof Error ? error.message : String(error) };
          return send({ id, error: rpcError });
        },
      )
      // An answer that cannot be written means the peer is gone; `closed` tells that story.
      .catch(() => undefined);
  };

  const receive = (frame: unknown): JsonRpcFrameKind => {
    if (!isObject(frame)) return 'unknown';
    const id = frame['id'];
    const method = frame['method'];
    const hasId = typeof id === 'number' || typeof id === 'string';
    if (typeof method === 'string') {
      if (hasId) {
        answerRequest(id, method, frame['params']);
        return 'request';
      }
      options.onNotification?.(method, frame['params']);
      return 'notification';
    }
    if (hasId && ('result' in frame || 'error' in frame)) {
      const request = pending.get(id);
      if (!request) return 'unknown';
      pending.delete(id);
      const error = frame['error'];
      if (isObject(error)) {
        request.reject(
          new JsonRpcResponseError({
            method: request.method,
            error: { code: typeof error['code'] === 'number' ? error['code'] : JSON_RPC_ERROR_CODES.internalError, message: typeof error['message'] === 'string' ? error['message'] : 'unknown error', data: error['data'] },
          }),
        );
      } else request.resolve(frame['result']);
      return 'response';
    }
    return 'unknown';
  };

  return {
    request<Result>(method: string, params?: unknown): Promise<Result> {
      if (closedReason) return Promise.reject(new JsonRpcConnectionClosedError(`${method} not sent: ${closedReason.message}`, { cause: closedReason }));
      const id = nextId++;
      return new Promise<Result>((resolve, reject) => {
        pending.set(id, { method, resolve: resolve as (result: unknown) => void, reject });
        send({ id, method, ...(params !== undefined ? { params } : {}) }).catch((error: unknown) => {
          if (!pending.delete(id)) return;
          reject(error instanceof Error ? error : new Error(String(error)));
        });
      });
    },
    notify: (method: string, params?: unknown) => send({ method, ...(params !== undefined ? { params } : {}) }),
    receive,
    close,
    closed,
  };
}
