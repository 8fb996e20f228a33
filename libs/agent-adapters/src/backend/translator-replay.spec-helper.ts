import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { agentMessageSchema, type AgentMessage, type TokenUsage } from '@switchyard/contracts';
import type { TranslatorContext, TranslatorFactory, TranslatorResult } from './translator.types';

/** Everything a translator reported through its context, in the order it reported it. */
export interface TranslatorRecording {
  readonly messages: AgentMessage[];
  readonly sessionIds: string[];
  /** Every report in order; the session keeps the latest per model. */
  readonly usage: TokenUsage[];
  readonly results: TranslatorResult[];
  readonly resumeRejected: number;
  /** Tool calls opened as the session's watchdog sees them: `tool-use` messages and explicit marks. */
  readonly toolsStarted: string[];
  /** Tool calls closed as the session's watchdog sees them: `tool-result` messages and explicit marks. */
  readonly toolsFinished: string[];
  /** The reasons of lines reported as malformed. */
  readonly malformed: string[];
}

/** A translator context that records every report, and the recording it fills. */
export function createRecordingContext(): { recording: TranslatorRecording; context: TranslatorContext } {
  const recording = { messages: [], sessionIds: [], usage: [], results: [], resumeRejected: 0, toolsStarted: [], toolsFinished: [], malformed: [] } as {
    -readonly [Key in keyof TranslatorRecording]: TranslatorRecording[Key];
  };
  const context: TranslatorContext = {
    emit: (message) => {
      recording.messages.push(message);
      if (message.type === 'tool-use') recording.toolsStarted.push(message.callId);
      if (message.type === 'tool-result') recording.toolsFinished.push(message.callId);
    },
    reportSessionId: (sessionId) => recording.sessionIds.push(sessionId),
    reportUsage: (usage) => recording.usage.push(usage),
    reportResult: (result) => recording.results.push(result),
    reportResumeRejected: () => {
      recording.resumeRejected += 1;
    },
    markToolStarted: (callId) => recording.toolsStarted.push(callId),
    markToolFinished: (callId) => recording.toolsFinished.push(callId),
    reportMalformed: (reason) => recording.malformed.push(reason),
  };
  return { recording, context };
}

/** Feeds native events, in order, through a fresh translator and returns what it reported. */
export function replay(factory: TranslatorFactory, events: Iterable<unknown>): TranslatorRecording {
  const { recording, context } = createRecordingContext();
  const translate = factory(context);
  for (const event of events) translate(event);
  return recording;
}

/** Reads the recorded frames in the `__fixtures__` folder beside a spec (pass the spec's `__dirname`). */
export interface FixtureReader {
  /** The names of every fixture in the folder. */
  names(): string[];
  path(name: string): string;
  text(name: string): string;
  /** The non-blank lines, as the session hands `text` lines to a translator. */
  lines(name: string): string[];
  /** The non-blank lines parsed as JSON, as the session hands `json` lines to a translator. */
  jsonLines(name: string): unknown[];
}

export function fixtureReader(specDirectory: string): FixtureReader {
  const directory = path.join(specDirectory, '__fixtures__');
  const fixturePath = (name: string): string => path.join(directory, name);
  const text = (name: string): string => readFileSync(fixturePath(name), 'utf8');
  const lines = (name: string): string[] => text(name).split('\n').filter((line) => line.trim() !== '');
  return { names: () => readdirSync(directory), path: fixturePath, text, lines, jsonLines: (name) => lines(name).map((line) => JSON.parse(line) as unknown) };
}

/** Expects every message to pass the contract schema, one expectation per message. */
export function expectMessagesAcceptedByContract(messages: readonly unknown[]): void {
  for (const message of messages) expect(agentMessageSchema.safeParse(message).success).toBe(true);
}
