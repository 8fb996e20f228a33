import { fakeCliRun, isProcessAlive, type FakeCliStep } from '../backend/fake-cli.spec-helper';
import { startAgentProcess, type AgentProcessOptions } from './agent-process.runner';
import type { OversizedLine } from './line-splitter';
import { isProcessGroupAlive } from './process-group.signals';

function startFake(steps: FakeCliStep[], overrides: Partial<AgentProcessOptions> = {}) {
  const run = fakeCliRun(steps);
  const lines: string[] = [];
  const oversized: OversizedLine[] = [];
  let onLineWaiters: Array<() => void> = [];
  const agentProcess = startAgentProcess({
    executable: run.executable,
    args: [...run.launchArgs, ...run.adapterArgs],
    cwd: run.cwd,
    env: {},
    onLine: (line) => {
      lines.push(line);
      const waiters = onLineWaiters;
      onLineWaiters = [];
      for (const waiter of waiters) waiter();
    },
    onOversizedLine: (line) => oversized.push(line),
    ...overrides,
  });
  const firstLine = async (): Promise<string> => {
    while (lines.length === 0) await new Promise<void>((resolve) => onLineWaiters.push(resolve));
    return lines[0] as string;
  };
  return { agentProcess, lines, oversized, firstLine };
}

describe('agent process runner', () => {
  it('passes exactly the given environment and no other', async () => {
    const { agentProcess, lines } = startFake([{ printEnv: true }], { env: { ONLY_THIS: 'yes', SWITCHYARD_TASK_TOKEN: 'token' } });
    const exit = await agentProcess.exited;
    expect(exit.exitCode).toBe(0);
    expect(JSON.parse(lines[0] as string)).toEqual({ type: 'env', env: { ONLY_THIS: 'yes', SWITCHYARD_TASK_TOKEN: 'token' } });
  });

  it('reports a missing CLI as cli_not_found with its name', async () => {
    const agentProcess = startAgentProcess({ executable: 'switchyard-no-such-cli', args: [], cwd: process.cwd(), env: { PATH: '/usr/bin:/bin' }, onLine: () => undefined, onOversizedLine: () => undefined });
    const exit = await agentProcess.exited;
    expect(exit.spawnError).toEqual({ code: 'cli_not_found', message: expect.stringContaining('switchyard-no-such-cli') });
    await expect(agentProcess.kill('cancel')).resolves.toEqual({ forced: false, groupGone: true });
  });

  it('tells a missing working directory apart from a missing CLI', async () => {
    const agentProcess = startAgentProcess({ executable: process.execPath, args: ['-e', ''], cwd: '/no/such/dir', env: {}, onLine: () => undefined, onOversizedLine: () => undefined });
    await expect(agentProcess.exited).resolves.toMatchObject({ spawnError: { code: 'cli_spawn_failed' } });
  });

  it('kills the whole process group, grandchild included, with SIGTERM when it is obeyed', async () => {
    const { agentProcess, firstLine } = startFake([{ spawnGrandchild: {} }, { hang: true }]);
    const grandchildPid = (JSON.parse(await firstLine()) as { pid: number }).pid;
    expect(isProcessAlive(grandchildPid)).toBe(true);

    const outcome = await agentProcess.kill('cancel');

    expect(outcome).toEqual({ forced: false, groupGone: true });
    expect(isProcessAlive(grandchildPid)).toBe(false);
    expect(isProcessGroupAlive(agentProcess.pid as number)).toBe(false);
    await expect(agentProcess.exited).resolves.toMatchObject({ signal: 'SIGTERM', killReason: 'cancel' });
  });

  it('escalates to SIGKILL after the grace when the tree ignores SIGTERM', async () => {
    const { agentProcess, firstLine } = startFake([{ ignoreSigterm: true }, { spawnGrandchild: { ignoreSigterm: true } }, { hang: true }], { killGraceMs: 300 });
    const grandchildPid = (JSON.parse(await firstLine()) as { pid: number }).pid;

    const outcome = await agentProcess.kill('cancel');

    expect(outcome).toEqual({ forced: true, groupGone: true });
    expect(isProcessAlive(grandchildPid)).toBe(false);
    await expect(agentProcess.exited).resolves.toMatchObject({ signal: 'SIGKILL' });
  });

  it('reaps what the CLI left in its group when it exits, even a member holding stdout', async () => {
    const { agentProcess, lines } = startFake([{ spawnGrandchild: { holdStdout: true } }, { print: { type: 'text', text: 'done' } }, { exit: 0 }]);
    const exit = await agentProcess.exited;
    const grandchildPid = (JSON.parse(lines[0] as string) as { pid: number }).pid;
    expect(exit).toMatchObject({ exitCode: 0, signal: null });
    expect(lines[1]).toBe('{"type":"text","text":"done"}');
    expect(isProcessAlive(grandchildPid)).toBe(false);
  });

  it('drops a 20 MB line as one oversized report and keeps reading the lines after it', async () => {
    const { agentProcess, lines, oversized } = startFake([{ print: { n: 1 } }, { bigLine: 20 * 1024 * 1024 }, { print: { n: 2 } }]);
    await agentProcess.exited;
    expect(lines).toEqual(['{"n":1}', '{"n":2}']);
    expect(oversized).toHaveLength(1);
    expect(oversized[0]?.bytes).toBe(20 * 1024 * 1024);
  });

  it('keeps a bounded stderr tail that ends with the last lines', async () => {
    const { agentProcess } = startFake([{ stderrFlood: 20_000 }, { stderr: 'the real reason' }, { exit: 3 }], { stderrTail: { maxBytes: 8 * 1024, maxLines: 50 } });
    const exit = await agentProcess.exited;
    expect(exit.exitCode).toBe(3);
    expect(Buffer.byteLength(exit.stderrTail)).toBeLessThanOrEqual(8 * 1024 + 64);
    expect(exit.stderrTail.split('\n').length).toBeLessThanOrEqual(51);
    expect(exit.stderrTail.endsWith(`stderr line 19999 ${'e'.repeat(100)}\nthe real reason`)).toBe(true);
    expect(exit.stderrTail.startsWith('[stderr truncated')).toBe(true);
  });

  it('writes to stdin for protocols that talk over it', async () => {
    const { agentProcess, lines } = startFake([{ echoStdin: true }]);
    await agentProcess.writeStdin('{"prompt":"hello"}\n');
    agentProcess.endStdin();
    await agentProcess.exited;
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([{ type: 'stdin', line: '{"prompt":"hello"}' }]);
  });
});
