import { createInterface } from 'node:readline';
import { randomUUID } from 'node:crypto';

/**
 * A fast stand-in for Claude Code speaking its stream-json protocol, for load: the real CLIs are
 * far too slow to load a system with. The prompt says what to do: `[[fake events=<n> rate=<per s>]]`.
 * Every text message carries `sent=<wall-clock ms>` so a client can measure line→screen latency.
 */
const wallClockMs = (): number => performance.timeOrigin + performance.now();
const write = (event: unknown): boolean => process.stdout.write(`${JSON.stringify(event)}\n`);

function settingsOf(prompt: string): { events: number; rate: number } {
  const match = /\[\[fake events=(\d+) rate=(\d+)\]\]/.exec(prompt);
  return { events: Number(match?.[1] ?? 10), rate: Math.max(1, Number(match?.[2] ?? 100)) };
}

async function main(): Promise<void> {
  if (process.argv.includes('--version')) {
    process.stdout.write('2.1.197 (Claude Code)\n');
    return;
  }
  const lines = createInterface({ input: process.stdin });
  const first = await new Promise<string>((resolve) => lines.once('line', resolve));
  const prompt = JSON.stringify(JSON.parse(first));
  const { events, rate } = settingsOf(prompt);
  const sessionId = randomUUID();
  write({ type: 'system', subtype: 'init', session_id: sessionId, model: 'fake-model' });
  const startedAt = performance.now();
  for (let index = 0; index < events; index += 1) {
    // Paced by the clock, not by sleeps per line, so the rate holds under load.
    const due = startedAt + (index * 1_000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const flushed = write({ type: 'assistant', session_id: sessionId, message: { model: 'fake-model', content: [{ type: 'text', text: `event ${index} sent=${wallClockMs().toFixed(3)}` }] } });
    if (!flushed) await new Promise((resolve) => process.stdout.once('drain', resolve));
  }
  write({ type: 'result', subtype: 'success', is_error: false, result: `emitted ${events}`, session_id: sessionId, modelUsage: { 'fake-model': { inputTokens: 1, outputTokens: events } } });
  // Claude exits when stdin closes after the result.
  await new Promise<void>((resolve) => {
    lines.once('close', resolve);
    setTimeout(resolve, 5_000).unref();
  });
}

void main();
