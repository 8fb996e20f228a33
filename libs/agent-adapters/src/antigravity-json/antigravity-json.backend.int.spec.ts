import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentSession } from '../backend/backend.types';
import { isProcessAlive } from '../backend/fake-cli.spec-helper';
import { collectRun, type CollectedRun } from '../backend/session-drain.spec-helper';
import { expectMessagesAcceptedByContract } from '../backend/translator-replay.spec-helper';
import { createAntigravityBackend } from './antigravity-json.backend';

const FAKE_AGY = path.join(__dirname, '__fixtures__', 'fake-agy.js');
const NEW_CONVERSATION = 'c0ffee00-0000-4000-8000-000000000001';

interface FakeAgyScenario {
  readonly textOnly?: boolean;
  readonly exitCode?: number;
  readonly printTimeout?: boolean;
  readonly hang?: boolean;
  /** `false`: the stream never names the conversation, only the log does. */
  readonly idInStream?: boolean;
}

/** What the fake agy was started with. */
interface SeenByAgy {
  readonly argv: string[];
  readonly pid: number;
  readonly grandchildPid?: number;
}

describe('Antigravity backend (scripted agy)', () => {
  let directory: string;
  let logDirectory: string;
  let runs = 0;

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'switchyard-agy-work-'));
    logDirectory = await mkdtemp(path.join(tmpdir(), 'switchyard-agy-logs-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
    await rm(logDirectory, { recursive: true, force: true });
  });

  async function start(scenario: FakeAgyScenario, options: { cliVersion?: string; resumeSessionId?: string } = {}): Promise<{ session: AgentSession; seen: () => SeenByAgy }> {
    runs += 1;
    const recordFile = path.join(directory, `seen-${runs}.json`);
    const backend = createAntigravityBackend({ logDirectory, ...(options.cliVersion ? { cliVersion: options.cliVersion } : {}) });
    const session = await backend.execute('list the files', {
      cwd: directory,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      executable: process.execPath,
      launchArgs: [FAKE_AGY, JSON.stringify({ ...scenario, recordFile })],
      ...(options.resumeSessionId ? { resumeSessionId: options.resumeSessionId } : {}),
      timeouts: { idleMs: 10_000, totalMs: 20_000, exitGraceMs: 2000 },
    });
    return { session, seen: () => JSON.parse(readFileSync(recordFile, 'utf8')) as SeenByAgy };
  }

  async function drain(session: AgentSession): Promise<CollectedRun> {
    const collected = await collectRun(session);
    expectMessagesAcceptedByContract(collected.messages);
    return collected;
  }

  it('plain-text agy: completes on exit 0 with all of stdout, the session id read from the log file', async () => {
    const run = await start({ textOnly: true }, { cliVersion: '1.0.14' });
    const { messages, result } = await drain(run.session);

    expect(result).toMatchObject({
      status: 'completed',
      output: 'I will list the files in the workspace.\nThere is one file: README.md.',
      sessionId: NEW_CONVERSATION,
      exitCode: 0,
    });
    expect(result.error).toBeUndefined();
    expect(messages).toEqual([
      { type: 'text', text: 'I will list the files in the workspace.' },
      { type: 'text', text: 'There is one file: README.md.' },
      { type: 'status', sessionId: NEW_CONVERSATION, state: 'session_from_log', progress: 'conversation id read from the agy log file' },
    ]);
    const { argv } = run.seen();
    expect(argv).not.toContain('--output-format');
    expect(argv.slice(-2)).toEqual(['-p', 'list the files']);
    expect(argv[argv.indexOf('--print-timeout') + 1]).toBe('20s');
    expect(argv[argv.indexOf('--add-dir') + 1]).toBe(directory);
    // The per-run log file is read, then removed.
    expect(readdirSync(logDirectory)).toEqual([]);
  });

  it('stream-json agy: translates the events and completes with the answer and usage', async () => {
    const run = await start({}, { cliVersion: '1.1.22' });
    const { messages, result } = await drain(run.session);

    expect(result).toMatchObject({ status: 'completed', output: 'There is one file: README.md.', sessionId: NEW_CONVERSATION, toolRan: true });
    expect(result.usage).toEqual([{ provider: 'google', model: 'gemini-test', inputTokens: 100, outputTokens: 20, cacheReadTokens: 40 }]);
    expect(messages.map((message) => message.type)).toEqual(['status', 'tool-use', 'tool-result', 'text']);
    expect(run.seen().argv).toEqual(expect.arrayContaining(['--output-format', 'stream-json']));
  });

  it('stream-json agy that names no conversation: the session id still comes from the log file', async () => {
    const run = await start({ idInStream: false }, { cliVersion: '1.1.8' });
    const { messages, result } = await drain(run.session);
    expect(result).toMatchObject({ status: 'completed', sessionId: NEW_CONVERSATION });
    expect(messages.at(-1)).toMatchObject({ type: 'status', sessionId: NEW_CONVERSATION, state: 'session_from_log' });
  });

  it('resumes with --conversation', async () => {
    const conversation = '2b1f9a9e-0000-4000-8000-00000000abcd';
    const run = await start({}, { cliVersion: '1.1.22', resumeSessionId: conversation });
    const { messages, result } = await drain(run.session);

    const { argv } = run.seen();
    expect(argv[argv.indexOf('--conversation') + 1]).toBe(conversation);
    expect(result).toMatchObject({ status: 'completed', sessionId: conversation, resumeRejected: false });
    expect(messages[0]).toEqual({ type: 'status', sessionId: conversation, state: 'resumed' });
  });

  it('a non-zero exit fails the run', async () => {
    const run = await start({ exitCode: 3 }, { cliVersion: '1.1.22' });
    const { result } = await drain(run.session);
    expect(result).toMatchObject({ status: 'failed', exitCode: 3, error: { code: 'cli_exited_nonzero' } });
    expect(result.error?.stderrTail).toContain('authentication required');
  });

  it('agy’s own print timeout (exit 0) ends the run as a timeout', async () => {
    const run = await start({ printTimeout: true, textOnly: true });
    const { result } = await drain(run.session);
    expect(result).toMatchObject({ status: 'timeout', error: { code: 'total_timeout' }, sessionId: NEW_CONVERSATION });
  });

  it('cancel leaves no process behind', async () => {
    const run = await start({ hang: true }, { cliVersion: '1.0.14' });
    for await (const message of run.session.messages) if (message.type === 'text') void run.session.cancel();
    const result = await run.session.result;

    expect(result.status).toBe('cancelled');
    const seen = run.seen();
    expect(isProcessAlive(seen.pid)).toBe(false);
    expect(isProcessAlive(seen.grandchildPid!)).toBe(false);
  });
});
