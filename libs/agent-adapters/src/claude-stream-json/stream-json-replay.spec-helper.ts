import { fixtureReader, replay, type TranslatorRecording } from '../backend/translator-replay.spec-helper';
import { createClaudeEventTranslator } from './claude-event.translator';
import type { StreamJsonDialect } from './stream-json.dialect';

export const streamJsonFixtures = fixtureReader(__dirname);

/** Replays a fixture of stdout frames through the family translator in the given dialect. */
export function replayFixture(fixture: string, dialect?: StreamJsonDialect): TranslatorRecording {
  return replayEvents(streamJsonFixtures.jsonLines(fixture), dialect);
}

/** Replays parsed events through the family translator in the given dialect (Claude Code's when none). */
export function replayEvents(events: readonly unknown[], dialect?: StreamJsonDialect): TranslatorRecording {
  return replay((context) => createClaudeEventTranslator(context, dialect ? { dialect } : {}), events);
}
