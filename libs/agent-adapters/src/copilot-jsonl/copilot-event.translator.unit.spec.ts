import type { AgentMessage } from '@switchyard/contracts';
import { expectMessagesAcceptedByContract, fixtureReader, replay, type TranslatorRecording } from '../backend/translator-replay.spec-helper';
import { COPILOT_RESUME_REJECTED_PATTERN, createCopilotEventTranslator, type CopilotEventTranslatorOptions } from './copilot-event.translator';
import { COPILOT_DEFAULT_PROVIDER } from './copilot-usage.provider';
import { usageFromCopilotUsageFile } from './copilot-usage.reader';
import type { CopilotUsageFile } from './copilot-wire.types';

const fixtures = fixtureReader(__dirname);

const replayEvents = (events: readonly unknown[], options: CopilotEventTranslatorOptions = {}): TranslatorRecording =>
  replay((context) => createCopilotEventTranslator(context, options), events);

/** Replays stdout recorded from the real Copilot CLI 1.0.102 run offline against the mock model server. */
const replayFixture = (name: string, options: CopilotEventTranslatorOptions = {}): TranslatorRecording => replayEvents(fixtures.jsonLines(name), options);

const timeline = (run: TranslatorRecording): AgentMessage[] => run.messages.filter((message) => message.type !== 'log');

const RECORDED = ['tool-call-then-text.jsonl', 'resumed-text.jsonl', 'model-error.jsonl', 'aborted-by-sigterm.jsonl'];

/** Every usage a run reports names who serves the model: an empty or missing provider books tokens to nobody. */
const expectEveryUsageHasProvider = (usage: ReadonlyArray<{ readonly provider?: string }>): void => {
  for (const entry of usage) expect(entry.provider).toMatch(/\S/);
};

describe('Copilot JSONL translator (recorded frames of Copilot CLI 1.0.102)', () => {
  it('turns a shell tool call and the final answer into timeline messages, session and result', () => {
    const run = replayFixture('tool-call-then-text.jsonl');
    const sessionId = '59a933fa-1362-4d10-b8d2-16b12ff92598';
    const callId = 'call_1cd784ce04724c4aad390f22';

    expect(timeline(run)).toEqual([
      { type: 'tool-use', tool: 'bash', callId, input: { command: "printf '%s' 'hello' > 'out.txt'", description: 'Mock model tool call' } },
      { type: 'tool-result', callId, tool: 'bash', output: '\n<shellId: 0 completed with exit code 0>', status: 'ok' },
      { type: 'text', text: 'Mock model final answer. Tool output: <shellId: 0 completed with exit code 0>' },
      { type: 'status', sessionId, state: 'started' },
    ]);
    expect(run.sessionIds).toEqual([sessionId]);
    expect(run.results).toEqual([{ status: 'completed' }]);
    expect(run.malformed).toEqual([]);
  });

  it('announces the id it was started with on the first event, before the closing result', () => {
    const sessionId = '59a933fa-1362-4d10-b8d2-16b12ff92598';
    const run = replayFixture('tool-call-then-text.jsonl', { sessionId });

    expect(run.messages[0]).toEqual({ type: 'status', sessionId, state: 'started' });
    expect(run.sessionIds).toEqual([sessionId]);
  });

  it('keeps the session id of a resumed run', () => {
    const run = replayFixture('resumed-text.jsonl');
    expect(run.sessionIds).toEqual(['59a933fa-1362-4d10-b8d2-16b12ff92598']);
    expect(timeline(run)).toContainEqual({ type: 'text', text: 'Mock model reply.' });
    expect(run.results).toEqual([{ status: 'completed' }]);
  });

  it('reports a model error as an error message and a failed result', () => {
    const run = replayFixture('model-error.jsonl');
    expect(timeline(run)).toContainEqual({ type: 'error', code: 'copilot_query', message: '400 Mock model error scenario: HTTP 400.' });
    expect(run.results).toEqual([{ status: 'failed', errorMessage: '400 Mock model error scenario: HTTP 400.' }]);
  });

  it('reports no result for an interrupted run, although the CLI closes it with exit code 0', () => {
    const run = replayFixture('aborted-by-sigterm.jsonl');
    expect(run.results).toEqual([]);
    expect(run.sessionIds).toEqual(['ad094b3d-7ffd-4d31-a78e-a3b58d69f5d6']);
    expect(run.messages).toContainEqual({ type: 'log', level: 'info', text: 'copilot aborted the turn' });
  });

  it('recognises the prose of a refused resume', () => {
    expect(COPILOT_RESUME_REJECTED_PATTERN.test(fixtures.text('bogus-resume.stderr.txt'))).toBe(true);
  });

  it('emits only messages the contract accepts, every usage with a provider', () => {
    for (const name of RECORDED) {
      const run = replayFixture(name);
      expectMessagesAcceptedByContract(run.messages);
      expectEveryUsageHasProvider(run.usage);
    }
  });

  // Shapes from the CLI's schemas/session-events.schema.json: 1.0.102 prints no reasoning against
  // a chat-completions mock and no assistant.usage on stdout.
  it('turns documented reasoning and usage events into thinking and summed usage per model', () => {
    const envelope = (type: string, data: unknown): unknown => ({ type, data, id: type, timestamp: '2026-11-30T03:05:30.000Z', parentId: null });
    const run = replayEvents([
      envelope('assistant.reasoning_delta', { reasoningId: 'r1', deltaContent: 'Let me ' }),
      envelope('assistant.reasoning', { reasoningId: 'r1', content: 'Let me think.' }),
      envelope('assistant.message', { messageId: 'm1', content: 'Done.', reasoningText: 'Let me think.' }),
      envelope('assistant.message', { messageId: 'm2', content: 'Again.', reasoningText: 'Second thought.' }),
      envelope('assistant.usage', { model: 'gpt-5.4', inputTokens: 100, outputTokens: 10, cacheReadTokens: 5 }),
      envelope('assistant.usage', { model: 'gpt-5.4', inputTokens: 50, outputTokens: 4 }),
      envelope('tool.execution_start', { toolCallId: 't1', toolName: 'view', arguments: { path: 'x' } }),
      envelope('tool.execution_complete', { toolCallId: 't1', success: false, error: { message: 'no such file', code: 'failure' } }),
      { type: 'result', sessionId: 's-1', exitCode: 0 },
    ]);

    expect(timeline(run)).toEqual([
      { type: 'thinking', text: 'Let me think.' },
      { type: 'text', text: 'Done.' },
      { type: 'thinking', text: 'Second thought.' },
      { type: 'text', text: 'Again.' },
      { type: 'usage', provider: 'github', model: 'gpt-5.4', inputTokens: 100, outputTokens: 10, cacheReadTokens: 5, cacheWriteTokens: 0 },
      { type: 'usage', provider: 'github', model: 'gpt-5.4', inputTokens: 150, outputTokens: 14, cacheReadTokens: 5, cacheWriteTokens: 0 },
      { type: 'tool-use', tool: 'view', callId: 't1', input: { path: 'x' } },
      { type: 'tool-result', callId: 't1', tool: 'view', output: 'no such file', status: 'error' },
      { type: 'status', sessionId: 's-1', state: 'started' },
    ]);
    expect(run.usage.at(-1)).toEqual({ provider: 'github', model: 'gpt-5.4', inputTokens: 150, outputTokens: 14, cacheReadTokens: 5, cacheWriteTokens: 0 });
    expectMessagesAcceptedByContract(run.messages);
  });

  it('books usage to the provider the event names for the model, else to the identity’s provider, never to an empty one', () => {
    const envelope = (data: unknown): unknown => ({ type: 'assistant.usage', data, id: 'u', timestamp: '2026-11-30T03:05:30.000Z', parentId: null });
    const run = replayEvents([
      envelope({ model: 'claude-sonnet-4.5', modelProvider: 'anthropic', inputTokens: 20, outputTokens: 2 }),
      // `other` is how 1.0.102 names a BYOK provider it does not know (`session.usage_record`).
      envelope({ model: 'mock-model', modelProvider: 'other', inputTokens: 7, outputTokens: 1 }),
      envelope({ model: 'gpt-5.4', modelProvider: '', inputTokens: 3, outputTokens: 1 }),
    ]);
    expect(run.usage.map((usage) => [usage.provider, usage.model])).toEqual([
      ['anthropic', 'claude-sonnet-4.5'],
      [COPILOT_DEFAULT_PROVIDER, 'mock-model'],
      [COPILOT_DEFAULT_PROVIDER, 'gpt-5.4'],
    ]);
    expect(COPILOT_DEFAULT_PROVIDER).toBe('github');
    expect(replayEvents([envelope({ model: 'm', inputTokens: 1, outputTokens: 1 })], { provider: 'azure' }).usage[0]?.provider).toBe('azure');
    expectEveryUsageHasProvider(run.usage);
    expectEveryUsageHasProvider(run.messages.filter((message) => message.type === 'usage'));
  });

  it('reads token totals per model from the --usage-output-file snapshot, booked to the identity’s provider (the file names none for BYOK)', () => {
    const file = JSON.parse(fixtures.text('usage-output-file.json')) as CopilotUsageFile;
    const usage = usageFromCopilotUsageFile(file);
    expect(usage).toEqual([{ provider: 'github', model: 'gpt-5.4', inputTokens: 12948, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }]);
    expectEveryUsageHasProvider(usage);
  });

  it('takes the provider the usage file names for a model', () => {
    const file = JSON.parse(fixtures.text('usage-output-file.json')) as CopilotUsageFile;
    const named: CopilotUsageFile = { ...file, providerModelMetrics: [{ provider: 'openai', modelId: 'gpt-5.4' }] };
    expect(usageFromCopilotUsageFile(named).map((usage) => usage.provider)).toEqual(['openai']);
  });

  it('reports a line that is not an event envelope, and logs an unfamiliar event type', () => {
    const run = replayEvents([[1, 2], { type: 'session.compaction_start', data: {} }]);
    expect(run.malformed).toEqual(['not a copilot event envelope']);
    expect(run.messages).toEqual([{ type: 'log', level: 'debug', text: 'copilot event session.compaction_start' }]);
  });
});
