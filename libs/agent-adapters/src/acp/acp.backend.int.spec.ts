import { tmpdir } from 'node:os';
import path from 'node:path';
import { collectRun, type CollectedRun } from '../backend/session-drain.spec-helper';
import { createAcpBackend, type AcpPermissionPolicy } from './acp.backend';

const FAKE_ACP_AGENT = path.join(__dirname, '__fixtures__', 'fake-acp-agent.js');

interface FakeAgentScenario {
  readonly advertiseResume?: boolean;
  readonly rejectResume?: boolean;
  readonly askPermission?: boolean;
  readonly askUnknown?: boolean;
  readonly exitDuringPrompt?: boolean;
}

/** What the fake agent reports in its answer: the client's side of the conversation. */
interface SeenByAgent {
  readonly resumedWith?: string;
  readonly permission?: { readonly result?: unknown };
  readonly unknownRequest?: { readonly error?: { readonly code: number } };
}

async function runFakeAgent(
  scenario: FakeAgentScenario,
  options: { resumeSessionId?: string; permissionPolicy?: AcpPermissionPolicy; resumeMethod?: 'session/resume' | 'session/load' } = {},
): Promise<CollectedRun & { seen: SeenByAgent | undefined }> {
  const backend = createAcpBackend({
    adapterArgs: [JSON.stringify(scenario)],
    resumeQuietMs: 20,
    ...(options.permissionPolicy ? { permissionPolicy: options.permissionPolicy } : {}),
    ...(options.resumeMethod ? { resumeMethod: options.resumeMethod } : {}),
  });
  const session = await backend.execute('hello', {
    cwd: tmpdir(),
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    executable: process.execPath,
    launchArgs: [FAKE_ACP_AGENT],
    ...(options.resumeSessionId ? { resumeSessionId: options.resumeSessionId } : {}),
    timeouts: { idleMs: 10_000, totalMs: 20_000, exitGraceMs: 2000 },
  });
  const { messages, result } = await collectRun(session);
  const answer = messages.filter((message) => message.type === 'text').at(-1);
  return { messages, result, seen: answer ? (JSON.parse(answer.text) as SeenByAgent) : undefined };
}

describe('ACP backend over the SDK client (scripted agent)', () => {
  it('answers a permission request with allow_once before allow_always, and completes', async () => {
    const { result, seen } = await runFakeAgent({ askPermission: true });

    expect(seen?.permission?.result).toEqual({ outcome: { outcome: 'selected', optionId: 'once' } });
    expect(result).toMatchObject({ status: 'completed', sessionId: 'fake-session-1', toolRan: true, exitCode: 0 });
  });

  it('answers per the reject policy', async () => {
    const { seen } = await runFakeAgent({ askPermission: true }, { permissionPolicy: 'reject' });
    expect(seen?.permission?.result).toEqual({ outcome: { outcome: 'selected', optionId: 'no' } });
  });

  it('answers a request it does not serve with method-not-found', async () => {
    const { result, seen } = await runFakeAgent({ askUnknown: true });
    expect(seen?.unknownRequest?.error?.code).toBe(-32601);
    expect(result.status).toBe('completed');
  });

  it('uses the resume method an identity documents, whatever the agent advertises', async () => {
    const loaded = await runFakeAgent({ advertiseResume: true }, { resumeSessionId: 'fake-session-1', resumeMethod: 'session/load' });
    const resumed = await runFakeAgent({}, { resumeSessionId: 'fake-session-1', resumeMethod: 'session/resume' });

    expect(loaded.seen?.resumedWith).toBe('session/load');
    expect(resumed.seen?.resumedWith).toBe('session/resume');
    expect(resumed.result).toMatchObject({ status: 'completed', sessionId: 'fake-session-1', resumeRejected: false });
  });

  it('resumes with session/resume when the agent advertises it, else with session/load', async () => {
    const resumed = await runFakeAgent({ advertiseResume: true }, { resumeSessionId: 'fake-session-1' });
    const loaded = await runFakeAgent({}, { resumeSessionId: 'fake-session-1' });

    expect(resumed.seen?.resumedWith).toBe('session/resume');
    expect(loaded.seen?.resumedWith).toBe('session/load');
    expect(resumed.result).toMatchObject({ status: 'completed', sessionId: 'fake-session-1', resumeRejected: false });
    expect(resumed.messages).toContainEqual({ type: 'status', sessionId: 'fake-session-1', state: 'resumed' });
  });

  it('reports a rejected resume as the run result', async () => {
    const { result } = await runFakeAgent({ advertiseResume: true, rejectResume: true }, { resumeSessionId: 'gone' });
    expect(result).toMatchObject({ status: 'failed', resumeRejected: true, toolRan: false });
    expect(result.error?.message).toContain('Invalid session identifier');
  });

  it('rejects the pending prompt when the agent exits mid-request, without unhandled rejections', async () => {
    const { messages, result } = await runFakeAgent({ exitDuringPrompt: true });
    // jest fails the running test on an unhandled rejection: give the closing connection time to make one.
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(result).toMatchObject({ status: 'failed', exitCode: 3 });
    expect(messages.filter((message) => message.type === 'text')).toEqual([]);
  });
});
