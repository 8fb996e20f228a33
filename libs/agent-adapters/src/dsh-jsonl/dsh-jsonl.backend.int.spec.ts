import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentMessage } from '@switchyard/contracts';
import type { AgentSession } from '../backend/backend.types';
import { isProcessAlive } from '../backend/fake-cli.spec-helper';
import { collectRun } from '../backend/session-drain.spec-helper';
import { expectMessagesAcceptedByContract } from '../backend/translator-replay.spec-helper';
import { createDshBackend, type DshBackendOptions } from './dsh-jsonl.backend';
import type { DshExecuteCommand } from './dsh-wire.types';

const FAKE_DSH = path.join(__dirname, '__fixtures__', 'fake-dsh.js');

interface FakeDshScenario {
  readonly hang?: boolean;
  readonly ignoreCancel?: boolean;
  readonly noReady?: boolean;
  readonly readyAfterMs?: number;
  readonly protocolVersion?: number;
  readonly frameVersion?: number;
  readonly foreignFrame?: boolean;
}

/** What the fake DSH saw: its argv after the scenario, the frames it read, and its pids. */
interface SeenByDsh {
  readonly argv: string[];
  readonly pid: number;
  readonly grandchildPid?: number;
  readonly frames: Array<{ type: string; [key: string]: unknown }>;
  readonly events: string[];
}

describe('DSH backend (scripted DSH)', () => {
  let directory: string;
  let runs = 0;

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'switchyard-dsh-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  function start(
    scenario: FakeDshScenario,
    options: { backend?: DshBackendOptions; resumeSessionId?: string; model?: string } = {},
  ): { session: Promise<AgentSession>; seen: () => SeenByDsh } {
    runs += 1;
    const recordFile = path.join(directory, `seen-${runs}.json`);
    const backend = createDshBackend({ profile: 'test-profile', createRequestId: () => `req-${runs}`, cancelGraceMs: 1000, ...options.backend });
    const session = backend.execute('list the files', {
      cwd: directory,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
      executable: process.execPath,
      launchArgs: [FAKE_DSH, JSON.stringify({ ...scenario, recordFile })],
      ...(options.model ? { model: options.model } : {}),
      ...(options.resumeSessionId ? { resumeSessionId: options.resumeSessionId } : {}),
      timeouts: { idleMs: 10_000, totalMs: 20_000, exitGraceMs: 2000 },
    });
    return { session, seen: () => JSON.parse(readFileSync(recordFile, 'utf8')) as SeenByDsh };
  }

  it('completes with text, a tool call, usage and the session id, after sending one execute frame', async () => {
    const run = start({}, { model: 'mock/mock-1', backend: { reasoningEffort: 'high', mcpServers: [{ name: 'files', transport: 'stdio', command: 'mcp-files' }] } });
    const { messages, result } = await collectRun(await run.session);

    expect(result).toMatchObject({ status: 'completed', output: 'There is one file: README.md.', sessionId: 'dsh-session-1', toolRan: true, resumeRejected: false, exitCode: 0 });
    expect(result.usage).toEqual([{ provider: 'mock', model: 'mock-1', inputTokens: 30, outputTokens: 7, cacheReadTokens: 4, cacheWriteTokens: 0 }]);
    expect(messages.filter((message) => message.type !== 'log').map((message) => message.type)).toEqual(['status', 'thinking', 'tool-use', 'tool-result', 'text']);
    expectMessagesAcceptedByContract(messages);

    const seen = run.seen();
    expect(seen.argv).toEqual(['--profile', 'test-profile', '--stdio']);
    const execute = seen.frames[0] as unknown as DshExecuteCommand;
    expect(execute).toEqual({
      v: 1,
      type: 'execute',
      request_id: expect.stringMatching(/^req-/) as string,
      cwd: directory,
      prompt: 'list the files',
      model: { provider: 'mock', id: 'mock-1' },
      reasoning_effort: 'high',
      mcp_servers: [{ name: 'files', transport: 'stdio', command: 'mcp-files' }],
    });
    expect(seen.events).toEqual(['sent ready', 'received execute', 'stdin closed']);
  });

  it('holds the execute frame until DSH is ready', async () => {
    const run = start({ readyAfterMs: 150 });
    const { result } = await collectRun(await run.session);
    expect(result.status).toBe('completed');
    expect(run.seen().events.slice(0, 2)).toEqual(['sent ready', 'received execute']);
  });

  it('sends the request anyway when DSH never says ready', async () => {
    const run = start({ noReady: true }, { backend: { readyTimeoutMs: 100 } });
    const { messages, result } = await collectRun(await run.session);
    expect(result.status).toBe('completed');
    expect(messages).toContainEqual({ type: 'log', level: 'warn', text: 'dsh sent no ready frame within 100 ms; sending the request anyway' });
  });

  it('resumes a known session', async () => {
    const run = start({}, { resumeSessionId: 'dsh-session-1' });
    const { messages, result } = await collectRun(await run.session);
    expect(result).toMatchObject({ status: 'completed', sessionId: 'dsh-session-1', resumeRejected: false });
    expect(messages).toContainEqual({ type: 'status', sessionId: 'dsh-session-1', state: 'resumed' });
    expect(run.seen().frames[0]).toMatchObject({ type: 'execute', resume_session_id: 'dsh-session-1' });
  });

  it('reports an unknown resume id as a rejected resume that ran no tool', async () => {
    const run = start({}, { resumeSessionId: 'gone-session' });
    const { result } = await collectRun(await run.session);
    expect(result).toMatchObject({ status: 'failed', resumeRejected: true, toolRan: false, error: { code: 'resume_rejected' } });
    expect(result.error?.message).toContain('no session gone-session');
  });

  it('cancels with the cancel frame; DSH ends the request and no process is left', async () => {
    const run = start({ hang: true });
    const session = await run.session;
    const messages: AgentMessage[] = [];
    for await (const message of session.messages) {
      messages.push(message);
      if (message.type === 'tool-use') void session.cancel();
    }
    const result = await session.result;

    expect(result.status).toBe('cancelled');
    const seen = run.seen();
    expect(seen.frames.map((frame) => frame.type)).toEqual(['execute', 'cancel']);
    expect(seen.frames[1]).toEqual({ v: 1, type: 'cancel', request_id: seen.frames[0]!['request_id'] });
    expect(messages).toContainEqual({ type: 'status', state: 'cancelled' });
    expect(isProcessAlive(seen.pid)).toBe(false);
    expect(isProcessAlive(seen.grandchildPid!)).toBe(false);
  });

  it('ends the process group when DSH ignores the cancel frame', async () => {
    const run = start({ hang: true, ignoreCancel: true }, { backend: { cancelGraceMs: 100 } });
    const session = await run.session;
    for await (const message of session.messages) if (message.type === 'tool-use') void session.cancel();
    const result = await session.result;

    expect(result.status).toBe('cancelled');
    const seen = run.seen();
    expect(seen.frames.map((frame) => frame.type)).toEqual(['execute', 'cancel']);
    expect(isProcessAlive(seen.pid)).toBe(false);
    expect(isProcessAlive(seen.grandchildPid!)).toBe(false);
  });

  it('fails with a clear error, before sending the request, when ready advertises another protocol version', async () => {
    const run = start({ protocolVersion: 2 });
    const { messages, result } = await collectRun(await run.session);

    expect(result).toMatchObject({ status: 'failed', error: { code: 'protocol_version_unsupported' } });
    expect(result.error?.message).toBe('dsh_protocol_version_unsupported: DSH is ready with protocol version 2, this client speaks version 1');
    expect(messages).toContainEqual(expect.objectContaining({ type: 'error', code: 'dsh_protocol_version_unsupported' }));
    expect(run.seen().frames).toEqual([]);
  });

  it('fails with a clear error when DSH frames carry another version', async () => {
    const run = start({ frameVersion: 2 });
    const { result } = await collectRun(await run.session);
    expect(result).toMatchObject({ status: 'failed', error: { code: 'protocol_version_unsupported' } });
    expect(result.error?.message).toMatch(/^dsh_protocol_version_unsupported: DSH sent a ready frame of protocol version 2/);
    expect(run.seen().frames).toEqual([]);
  });

  it('counts a frame of another request as malformed and goes on', async () => {
    const run = start({ foreignFrame: true });
    const { messages, result } = await collectRun(await run.session);
    expect(result).toMatchObject({ status: 'completed', diagnostics: { malformedLines: 1 } });
    expect(messages).toContainEqual(expect.objectContaining({ type: 'log', level: 'warn', text: expect.stringContaining('another request someone-else') as string }));
  });

  it('refuses a model id that is not provider/model before spawning anything', async () => {
    const run = start({}, { model: 'just-a-model' });
    await expect(run.session).rejects.toMatchObject({ name: 'DshInvalidModelError', code: 'dsh_invalid_model' });
    expect(existsSync(path.join(directory, `seen-${runs}.json`))).toBe(false);
  });
});
