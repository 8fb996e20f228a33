import { expectMessagesAcceptedByContract, fixtureReader, replay, type TranslatorRecording } from '../backend/translator-replay.spec-helper';
import { createAntigravityStreamTranslator, createAntigravityTextTranslator, type AntigravityStreamTranslatorOptions } from './antigravity-event.translator';

const fixtures = fixtureReader(__dirname);

/** Replays frames written in the shapes of public agy 1.1.17–1.1.27 captures (see antigravity-wire.types). */
const replayStream = (fixture: string, options: AntigravityStreamTranslatorOptions = {}): TranslatorRecording =>
  replay((context) => createAntigravityStreamTranslator(context, options), fixtures.jsonLines(fixture));

// The session drops blank lines before translating.
const replayText = (fixture: string): TranslatorRecording => replay(createAntigravityTextTranslator, fixtures.lines(fixture));

describe('Antigravity stream-json translator', () => {
  it('turns a tool step and the streamed answer into timeline messages, session, usage and result', () => {
    const run = replayStream('stream-json-tool-call-then-text.jsonl');
    const conversation = 'c0ffee00-0000-4000-8000-000000000001';

    expect(run.messages).toEqual([
      { type: 'status', sessionId: conversation, state: 'started' },
      { type: 'tool-use', tool: 'list_dir', callId: 'step-2', input: { Path: '/tmp/agy-work' } },
      { type: 'tool-result', tool: 'list_dir', callId: 'step-2', output: '1 entry', status: 'ok', metadata: { 'antigravity-json': { durationSeconds: 0.05 } } },
      { type: 'text', text: 'There is one file: README.md.' },
    ]);
    expect(run.sessionIds).toEqual([conversation]);
    expect(run.usage).toEqual([{ provider: 'google', model: 'gemini-3.7-flash-high', inputTokens: 1900, outputTokens: 32, cacheReadTokens: 600 }]);
    expect(run.results).toEqual([{ status: 'completed', output: 'There is one file: README.md.' }]);
    expect(run.malformed).toEqual([]);
  });

  it('marks the conversation as resumed when it is the one asked for', () => {
    const run = replayStream('stream-json-tool-call-then-text.jsonl', { resumeSessionId: 'c0ffee00-0000-4000-8000-000000000001' });
    expect(run.messages[0]).toEqual({ type: 'status', sessionId: 'c0ffee00-0000-4000-8000-000000000001', state: 'resumed' });
  });

  it('says so when agy opened another conversation than the one asked for', () => {
    const run = replayStream('stream-json-tool-call-then-text.jsonl', { resumeSessionId: 'c0ffee00-0000-4000-8000-0000000000ff' });
    expect(run.messages[1]).toEqual({ type: 'log', level: 'warn', text: expect.stringContaining('not the requested c0ffee00-0000-4000-8000-0000000000ff') as string });
  });

  it('closes a failed tool step as an error and fails the run with agy’s error', () => {
    const run = replayStream('stream-json-tool-error.jsonl', { model: 'gemini-3.7-pro-high' });

    expect(run.messages).toContainEqual({ type: 'tool-result', tool: 'run_command', callId: 'step-4', output: 'permission check failed', status: 'error', metadata: { 'antigravity-json': { durationSeconds: 0.07 } } });
    expect(run.messages.at(-1)).toEqual({ type: 'error', code: 'antigravity_error', message: 'permission check failed for command "rm -rf build"' });
    expect(run.results).toEqual([{ status: 'failed', errorMessage: 'permission check failed for command "rm -rf build"' }]);
    expect(run.usage).toEqual([{ provider: 'google', model: 'gemini-3.7-pro-high', inputTokens: 5000, outputTokens: 60, cacheReadTokens: 0 }]);
  });

  it('reads closing updates that name only their step, cumulative text, unindexed tools; counts unknown steps and events', () => {
    const run = replayStream('stream-json-closing-updates.jsonl');

    expect(run.messages.filter((message) => message.type !== 'status')).toEqual([
      { type: 'tool-use', tool: 'search_web', callId: 'search_web-1', input: { query: 'agy' } },
      { type: 'tool-result', tool: 'search_web', callId: 'search_web-1', output: '3 results', status: 'ok' },
      { type: 'text', text: 'Gemini answer' },
    ]);
    expect(run.malformed).toEqual(['unknown agy step type planner_thought', 'unknown agy event heartbeat']);
    // `OK` (agy before 1.1.22) succeeds too; an empty response leaves the last text as the answer.
    expect(run.results).toEqual([{ status: 'completed' }]);
  });

  it('emits only messages the contract accepts', () => {
    for (const fixture of fixtures.names().filter((name) => name.startsWith('stream-json-'))) {
      expectMessagesAcceptedByContract(replayStream(fixture).messages);
    }
    expectMessagesAcceptedByContract(replayText('text-mode-stdout.txt').messages);
  });
});

describe('Antigravity plain-text translator', () => {
  it('shows every stdout line as text and reports nothing else', () => {
    const run = replayText('text-mode-stdout.txt');
    expect(run.messages).toEqual([
      { type: 'text', text: 'I will list the files in the workspace.' },
      { type: 'text', text: 'There is one file: README.md.' },
    ]);
    expect(run.results).toEqual([]);
    expect(run.sessionIds).toEqual([]);
  });
});
