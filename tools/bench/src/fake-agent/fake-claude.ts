import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { randomUUID } from 'node:crypto';
import { readFakePrompt } from './fake-prompt';
import { SPAWN_CHILD_VARIABLE, SPAWN_LOG_VARIABLE, START_GATE_VARIABLE, formatSpawnRecord, type SpawnRecord } from './spawn-log';

/**
 * A fast stand-in for Claude Code speaking its stream-json protocol, for load: the real CLIs are
 * far too slow to load a system with. The prompt says what to do (`fake-prompt.ts`). Every text
 * message carries `sent=<wall-clock ms>` so a client can measure line→screen latency. With
 * `FAKE_AGENT_SPAWN_LOG` set it records when it started (and its child, with `FAKE_AGENT_CHILD=1`);
 * with `FAKE_AGENT_START_GATE` it waits for that file before emitting.
 */
const wallClockMs = (): number => performance.timeOrigin + performance.now();
const write = (event: unknown): boolean => process.stdout.write(`${JSON.stringify(event)}\n`);
const MIN_TICK_MS = 10;
const GATE_TIMEOUT_MS = 5 * 60_000;

function textEvent(sessionId: string, index: number): unknown {
  return { type: 'assistant', session_id: sessionId, message: { model: 'fake-model', content: [{ type: 'text', text: `event ${index} sent=${wallClockMs().toFixed(3)}` }] } };
}

function recordSpawn(record: SpawnRecord): void {
  const log = process.env[SPAWN_LOG_VARIABLE];
  if (log) appendFileSync(log, formatSpawnRecord(record));
}

async function main(): Promise<void> {
  if (process.argv.includes('--version')) {
    process.stdout.write('2.1.197 (Claude Code)\n');
    return;
  }
  const taskId = process.env['SWITCHYARD_TASK_ID'] ?? 'unknown';
  recordSpawn({ event: 'spawned', taskId, pid: process.pid, startedAt: performance.timeOrigin, readyAt: wallClockMs() });
  let child: ChildProcess | undefined;
  if (process.env[SPAWN_CHILD_VARIABLE] === '1') {
    // Same process group as the agent, like a tool the agent runs: a cancel must take it down too.
    child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
    child.unref();
    recordSpawn({ event: 'tree', taskId, pid: process.pid, childPid: child.pid ?? -1 });
  }
  const lines = createInterface({ input: process.stdin });
  const first = await new Promise<string>((resolve) => lines.once('line', resolve));
  const { events, rate } = readFakePrompt(JSON.stringify(JSON.parse(first)));
  const sessionId = randomUUID();
  write({ type: 'system', subtype: 'init', session_id: sessionId, model: 'fake-model' });
  let stdinClosed = false;
  lines.once('close', () => {
    stdinClosed = true;
  });
  const gate = process.env[START_GATE_VARIABLE];
  const gateDeadline = performance.now() + GATE_TIMEOUT_MS;
  while (gate && !existsSync(gate)) {
    // Never outlive the run: a dead daemon (stdin closed) or a gate that never opens ends the wait.
    if (stdinClosed || performance.now() > gateDeadline) process.exit(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const startedAt = performance.now();
  for (let index = 0; index < events; ) {
    // Paced by the clock: every line due by now goes out in one write, then sleep to the next one
    // (at least a tick), so the rate holds under load and 50 agents do not wake 10,000 times a second.
    const due = Math.min(events, Math.floor(((performance.now() - startedAt) * rate) / 1_000) + 1);
    let batch = '';
    for (; index < due; index += 1) batch += `${JSON.stringify(textEvent(sessionId, index))}\n`;
    if (!process.stdout.write(batch)) await new Promise((resolve) => process.stdout.once('drain', resolve));
    if (index < events) await new Promise((resolve) => setTimeout(resolve, Math.max(MIN_TICK_MS, startedAt + (index * 1_000) / rate - performance.now())));
  }
  write({ type: 'result', subtype: 'success', is_error: false, result: `emitted ${events}`, session_id: sessionId, modelUsage: { 'fake-model': { inputTokens: 1, outputTokens: events } } });
  // Claude exits when stdin closes after the result.
  await new Promise<void>((resolve) => {
    if (stdinClosed) resolve();
    lines.once('close', resolve);
    setTimeout(resolve, 5_000).unref();
  });
  child?.kill();
}

void main();
