import type { MockModelServer, RecordedRequest } from '@switchyard/testing';
import type { AgentSession } from '../backend/backend.types';
import { collectMessages, type CollectedRun } from '../backend/session-drain.spec-helper';

export interface StopDuringSlowAnswerOptions {
  readonly session: AgentSession;
  readonly server: MockModelServer;
  /** Picks the model request that carries the slow prompt; only a request still pending counts. */
  readonly isSlowRequest: (request: RecordedRequest) => boolean;
  readonly waitMs: number;
  readonly stop: 'cancel' | 'interrupt';
}

/**
 * Cancels or interrupts a session once the mock model is holding the slow answer it asked for,
 * draining the session meanwhile. Returns what the session streamed, its result and the slow request.
 */
export async function stopDuringSlowAnswer(options: StopDuringSlowAnswerOptions): Promise<CollectedRun & { readonly slowRequest: RecordedRequest }> {
  const { session, server, isSlowRequest, waitMs, stop } = options;
  const draining = collectMessages(session);
  const slowRequest = await server.waitForRequest((request) => request.outcome === 'pending' && isSlowRequest(request), waitMs);
  if (stop === 'interrupt') {
    if (!session.interrupt) throw new Error('this session cannot interrupt a turn');
    await session.interrupt();
  } else {
    await session.cancel();
  }
  const result = await session.result;
  return { messages: await draining, result, slowRequest };
}
