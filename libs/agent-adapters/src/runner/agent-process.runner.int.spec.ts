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

  it('does not wait forever for a process that escaped the group (setsid) and holds stdout open', async () => {
    // `detached` makes the grandchild a session leader: out of our group, so the exit reaping misses it.
    const script = `
      const { spawn } = require('node:child_process');
      const escaped = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
      process.stdout.write(JSON.stringify({ type: 'escaped', pid: escaped.pid }) + '\\n');
      process.stdout.write('{"type":"text","text":"done"}\\n', () => process.exit(0));
    `;
    const lines: string[] = [];
    const startedAt = Date.now();
    const agentProcess = startAgentProcess({ executable: process.execPath, args: ['-e', script], cwd: process.cwd(), env: {}, onLine: (line) => lines.push(line), onOversizedLine: () => undefined });
    const exit = await agentProcess.exited;
    const escapedPid = (JSON.parse(lines[0] as string) as { pid: number }).pid;
    try {
      expect(exit).toMatchObject({ exitCode: 0, signal: null });
      expect(lines[1]).toBe('{"type":"text","text":"done"}');
      expect(isProcessAlive(escapedPid)).toBe(true);
      expect(Date.now() - startedAt).toBeLessThan(10_000);
    } finally {
      process.kill(escapedPid, 'SIGKILL');
    }
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

describe('agent process runner under load', () => {
  /** Synchronous work, as a translator or the redaction of a big message would do. */
  function busyFor(milliseconds: number): void {
    const until = Date.now() + milliseconds;
    while (Date.now() < until) {
      // Nothing: the point is that the event loop cannot turn.
    }
  }

  /**
   * Blocks the event loop longer than the runner's stdio drain window again and again, between two
   * poll phases: a child that exited meanwhile has its drain timer due before its output is read.
   */
  function starveEventLoop(blockMs: number): () => void {
    let starving = true;
    const block = (): void => {
      if (!starving) return;
      busyFor(blockMs);
      setImmediate(block);
    };
    setImmediate(block);
    return () => {
      starving = false;
    };
  }

  it('delivers every line of 40 concurrent short-lived CLIs while the event loop is starved', async () => {
    const linesPerRun = 100;
    const output = (run: number): string[] => Array.from({ length: linesPerRun }, (_, line) => `{"run":${run},"line":${line}}`);
    const stopStarving = starveEventLoop(1500);
    try {
      const runs = Array.from({ length: 40 }, (_, run) => {
        const lines: string[] = [];
        const fake = fakeCliRun([{ printRaw: `${output(run).join('\n')}\n` }, { exit: 0 }]);
        const agentProcess = startAgentProcess({
          executable: fake.executable,
          args: [...fake.launchArgs, ...fake.adapterArgs],
          cwd: fake.cwd,
          env: {},
          onLine: (line) => {
            busyFor(1);
            lines.push(line);
          },
          onOversizedLine: () => undefined,
        });
        return { agentProcess, lines };
      });
      const exits = await Promise.all(runs.map(({ agentProcess }) => agentProcess.exited));

      expect(exits.map((exit) => exit.exitCode)).toEqual(runs.map(() => 0));
      const incomplete = runs.flatMap(({ lines }, run) => (lines.length === linesPerRun ? [] : [`run ${run}: ${lines.length} of ${linesPerRun} lines`]));
      expect(incomplete).toEqual([]);
      runs.forEach(({ lines }, run) => expect(lines).toEqual(output(run)));
    } finally {
      stopStarving();
    }
  }, 120_000);
});
