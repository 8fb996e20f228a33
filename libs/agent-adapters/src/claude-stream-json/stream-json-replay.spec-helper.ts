import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentMessage, TokenUsage } from '@switchyard/contracts';
import type { TranslatorContext, TranslatorResult } from '../backend/translator.types';
import { createClaudeEventTranslator } from './claude-event.translator';
import type { StreamJsonDialect } from './stream-json.dialect';

export interface Replay {
  readonly messages: AgentMessage[];
  readonly sessionIds: string[];
  /** Every report in order; the session keeps the latest per model. */
  readonly usage: TokenUsage[];
  readonly results: TranslatorResult[];
  readonly resumeRejected: number;
  readonly malformed: string[];
}

/** Replays a fixture of stdout frames through the family translator in the given dialect. */
export function replayFixture(fixture: string, dialect: StreamJsonDialect): Replay {
  const lines = readFileSync(fixturePath(fixture), 'utf8').split('\n').filter(Boolean);
  return replayEvents(lines.map((line) => JSON.parse(line) as unknown), dialect);
}

/** Replays parsed events through the family translator in the given dialect. */
export function replayEvents(events: readonly unknown[], dialect: StreamJsonDialect): Replay {
  const replayed = { messages: [] as AgentMessage[], sessionIds: [] as string[], usage: [] as TokenUsage[], results: [] as TranslatorResult[], resumeRejected: 0, malformed: [] as string[] };
  const context: TranslatorContext = {
    emit: (message) => replayed.messages.push(message),
    reportSessionId: (sessionId) => replayed.sessionIds.push(sessionId),
    reportUsage: (usage) => replayed.usage.push(usage),
    reportResult: (result) => replayed.results.push(result),
    reportResumeRejected: () => {
      replayed.resumeRejected += 1;
    },
    markToolStarted: () => undefined,
    markToolFinished: () => undefined,
    reportMalformed: (reason) => replayed.malformed.push(reason),
  };
  const translate = createClaudeEventTranslator(context, { dialect });
  for (const event of events) translate(event);
  return replayed;
}

export function fixturePath(fixture: string): string {
  return path.join(__dirname, '__fixtures__', fixture);
}
