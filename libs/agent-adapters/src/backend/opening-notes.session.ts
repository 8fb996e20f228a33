import type { AgentMessage } from '@switchyard/contracts';
import type { AgentSession } from './backend.types';

/**
 * The session with `notes` streamed before the CLI's own messages: what the adapter could not
 * apply (a thinking level the CLI has no setting for) belongs at the top of the timeline.
 */
export function withOpeningNotes(session: AgentSession, notes: readonly AgentMessage[]): AgentSession {
  if (notes.length === 0) return session;
  const messages = session.messages;
  async function* withNotes(): AsyncGenerator<AgentMessage> {
    yield* notes;
    yield* messages;
  }
  return { ...session, messages: withNotes(), cancel: () => session.cancel() };
}
