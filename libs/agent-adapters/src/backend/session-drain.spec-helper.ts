import type { AgentMessage } from '@switchyard/contracts';
import type { AgentRunResult, AgentSession } from './backend.types';

/** A finished run: every message the session streamed, and its result. */
export interface CollectedRun {
  readonly messages: AgentMessage[];
  readonly result: AgentRunResult;
}

/**
 * Reads the session's messages until the stream ends. Reading starts at once, so a promise left
 * pending drains the session in the background (as a run that is to be cancelled needs).
 */
export async function collectMessages(session: AgentSession): Promise<AgentMessage[]> {
  const messages: AgentMessage[] = [];
  for await (const message of session.messages) messages.push(message);
  return messages;
}

/** Drains a session to its end: its messages, then its result. */
export async function collectRun(session: AgentSession): Promise<CollectedRun> {
  const messages = await collectMessages(session);
  return { messages, result: await session.result };
}
