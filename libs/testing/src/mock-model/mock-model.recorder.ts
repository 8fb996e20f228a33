import type { ModelApi, TurnDecision } from './conversation.types';

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

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface RequestWaiter {
  readonly predicate: (request: RecordedRequest) => boolean;
  readonly resolve: (request: RecordedRequest) => void;
  readonly reject: (error: Error) => void;
}

/** The requests the server saw, in arrival order (numbered on across resets), and who waits for one. */
export interface RequestRecorder {
  recorded: Array<Mutable<RecordedRequest>>;
  sequence: number;
  readonly waiters: Set<RequestWaiter>;
}

export function createRequestRecorder(): RequestRecorder {
  return { recorded: [], sequence: 0, waiters: new Set() };
}

const snapshot = (request: RecordedRequest): RecordedRequest => ({ ...request });

export const recordedRequests = (recorder: RequestRecorder): RecordedRequest[] => recorder.recorded.map(snapshot);

export function nextSequence(recorder: RequestRecorder): number {
  return (recorder.sequence += 1);
}

/** Keeps a new request and tells whoever waits for one like it. */
export function addRequest(recorder: RequestRecorder, request: Mutable<RecordedRequest>): void {
  recorder.recorded.push(request);
  notifyWaiters(recorder, request);
}

export function updateRequest(recorder: RequestRecorder, request: Mutable<RecordedRequest>, change: Partial<Mutable<RecordedRequest>>): void {
  Object.assign(request, change);
  notifyWaiters(recorder, request);
}

function notifyWaiters(recorder: RequestRecorder, request: Mutable<RecordedRequest>): void {
  for (const waiter of [...recorder.waiters]) {
    if (!waiter.predicate(snapshot(request))) continue;
    recorder.waiters.delete(waiter);
    waiter.resolve(snapshot(request));
  }
}

/** The first request, already seen or still to come (outcome changes included), that matches. */
export function waitForRequest(recorder: RequestRecorder, predicate: (request: RecordedRequest) => boolean, timeoutMilliseconds: number): Promise<RecordedRequest> {
  const seen = recorder.recorded.find((request) => predicate(snapshot(request)));
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
      recorder.waiters.delete(waiter);
      reject(new Error(`No matching mock model request within ${timeoutMilliseconds} ms (${recorder.recorded.length} recorded).`));
    }, timeoutMilliseconds);
    recorder.waiters.add(waiter);
  });
}

export function rejectWaiters(recorder: RequestRecorder, error: () => Error): void {
  for (const waiter of recorder.waiters) waiter.reject(error());
  recorder.waiters.clear();
}
