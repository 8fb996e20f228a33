import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleMockModelRequest, sendJson, type MockModelState } from './mock-model-request.handler';
import { createRequestRecorder, recordedRequests, rejectWaiters, updateRequest, waitForRequest, type Mutable, type RecordedRequest } from './mock-model.recorder';

export { routeOf } from './mock-model-request.handler';
export type { RecordedRequest, RequestOutcome } from './mock-model.recorder';

export const DEFAULT_MOCK_MODEL = 'mock-model';

export interface MockModelServerOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  /** Model named in replies when a request names none, and listed by the model endpoints. */
  readonly defaultModel?: string;
  /** Receives one line per request and per notable event (client disconnects, failures). */
  readonly log?: (line: string) => void;
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

const DEFAULT_WAIT_MILLISECONDS = 10_000;

/** Starts the scripted mock of the Anthropic Messages, OpenAI Responses / Chat Completions and Gemini APIs on 127.0.0.1. */
export async function startMockModelServer(options: MockModelServerOptions = {}): Promise<MockModelServer> {
  const state: MockModelState = {
    defaultModel: options.defaultModel ?? DEFAULT_MOCK_MODEL,
    log: options.log ?? ((): void => undefined),
    recorder: createRequestRecorder(),
    spentOnceKeys: new Set(),
  };
  const { recorder } = state;
  const server = createServer((incoming, response) => onRequest(state, incoming, response));
  await listen(server, options.port ?? 0);
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: () => recordedRequests(recorder),
    reset: () => {
      recorder.recorded = [];
      state.spentOnceKeys.clear();
    },
    waitForRequest: (predicate, timeoutMilliseconds = DEFAULT_WAIT_MILLISECONDS) => waitForRequest(recorder, predicate, timeoutMilliseconds),
    stop: () =>
      new Promise<void>((resolve, reject) => {
        rejectWaiters(recorder, () => new Error('The mock model server stopped before a matching request arrived.'));
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Answers one request; a failure is logged, recorded, and answered 500 (or the connection cut mid-reply). */
function onRequest(state: MockModelState, incoming: IncomingMessage, response: ServerResponse): void {
  const current: { record?: Mutable<RecordedRequest> } = {};
  handleMockModelRequest(state, incoming, response, current).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    state.log(`mock-model failed on ${incoming.method ?? ''} ${incoming.url ?? ''}: ${message}`);
    if (current.record) updateRequest(state.recorder, current.record, { status: 500, outcome: 'failed' });
    if (!response.headersSent) sendJson(response, 500, { error: { message: `Mock model server failure: ${message}` } });
    else response.destroy();
  });
}
