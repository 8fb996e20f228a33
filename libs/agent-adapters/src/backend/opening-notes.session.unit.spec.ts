import type { AgentMessage } from '@switchyard/contracts';
import type { AgentRunResult, AgentSession } from './backend.types';
import { withOpeningNotes } from './opening-notes.session';

function messagesOf(messages: AgentMessage[]): AsyncIterable<AgentMessage> {
  return {
    [Symbol.asyncIterator]: () => {
      const iterator = messages[Symbol.iterator]();
      return { next: () => Promise.resolve(iterator.next()) };
    },
  };
}

function sessionWith(messages: AgentMessage[]): AgentSession & { cancelled: number } {
  const session = {
    cancelled: 0,
    messages: messagesOf(messages),
    result: Promise.resolve({ status: 'completed' } as AgentRunResult),
    interrupt: () => Promise.resolve(),
    cancel: () => {
      session.cancelled += 1;
      return Promise.resolve();
    },
  };
  return session;
}

describe('withOpeningNotes', () => {
  const note: AgentMessage = { type: 'log', level: 'warn', text: 'thinking level "max" not applied' };
  const text: AgentMessage = { type: 'text', text: 'done' };

  it('streams the notes before the CLI’s own messages and keeps the rest of the session', async () => {
    const inner = sessionWith([text]);
    const session = withOpeningNotes(inner, [note]);
    const seen: AgentMessage[] = [];
    for await (const message of session.messages) seen.push(message);

    expect(seen).toEqual([note, text]);
    await expect(session.result).resolves.toMatchObject({ status: 'completed' });
    expect(session.interrupt).toBe(inner.interrupt);
    await session.cancel();
    expect(inner.cancelled).toBe(1);
  });

  it('hands back the same session when there is nothing to say', () => {
    const inner = sessionWith([text]);

    expect(withOpeningNotes(inner, [])).toBe(inner);
  });
});
