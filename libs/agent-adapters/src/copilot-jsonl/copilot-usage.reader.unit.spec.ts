import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { copilotSessionEventsPath, readCopilotSessionUsage, usageAddedSince } from './copilot-usage.reader';

// `resumed-session-events.jsonl`: the event log of a session run once, then resumed once (Copilot
// CLI 1.0.102, mock model server), its long `system.message` lines left out.
const LOG_LINES = readFileSync(path.join(__dirname, '__fixtures__', 'resumed-session-events.jsonl'), 'utf8').split('\n').filter(Boolean);
const FIRST_RUN_LINES = LOG_LINES.slice(0, LOG_LINES.findIndex((line) => line.startsWith('{"type":"session.resume"')));

describe('Copilot session usage (event log and usage file totals)', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'copilot-events-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  async function logOf(lines: readonly string[]): Promise<string> {
    const file = path.join(directory, `events-${lines.length}.jsonl`);
    await writeFile(file, `${lines.join('\n')}\n`);
    return file;
  }

  it('reads the totals of the last shutdown: what the next run on the session starts counting from', async () => {
    await expect(readCopilotSessionUsage(await logOf(FIRST_RUN_LINES))).resolves.toEqual([
      { provider: 'github', model: 'mock-model', inputTokens: 11997, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
    ]);
    await expect(readCopilotSessionUsage(await logOf(LOG_LINES))).resolves.toEqual([
      { provider: 'github', model: 'mock-model', inputTokens: 24041, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
    ]);
  });

  it('has no totals for a missing log, no log path, or a log without a shutdown', async () => {
    await expect(readCopilotSessionUsage(path.join(directory, 'missing.jsonl'))).resolves.toEqual([]);
    await expect(readCopilotSessionUsage(undefined)).resolves.toEqual([]);
    await expect(readCopilotSessionUsage(await logOf(FIRST_RUN_LINES.slice(0, 3)))).resolves.toEqual([]);
  });

  it("subtracts the earlier runs from a resumed run's whole-session usage file", () => {
    const before = [{ model: 'mock-model', inputTokens: 11997, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }];
    const total = [
      { model: 'mock-model', inputTokens: 24041, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
      { model: 'other-model', inputTokens: 7, outputTokens: 1 },
    ];
    expect(usageAddedSince({ before, total })).toEqual([
      { model: 'mock-model', inputTokens: 12044, outputTokens: 15, cacheReadTokens: 0, cacheWriteTokens: 0 },
      { model: 'other-model', inputTokens: 7, outputTokens: 1 },
    ]);
    expect(usageAddedSince({ before: [], total })).toEqual(total);
    // A model only the earlier runs called is not part of this run's usage.
    expect(usageAddedSince({ before: total, total })).toEqual([]);
  });

  it('finds the event log under COPILOT_HOME, else HOME/.copilot, and not for a resume by name', () => {
    const sessionId = '01c638cb-c445-447a-97d5-b0c7bff39a82';
    expect(copilotSessionEventsPath({ env: { HOME: '/home/runtime' }, sessionId })).toBe(`/home/runtime/.copilot/session-state/${sessionId}/events.jsonl`);
    expect(copilotSessionEventsPath({ env: { HOME: '/home/runtime', COPILOT_HOME: '/state/copilot' }, sessionId })).toBe(
      `/state/copilot/session-state/${sessionId}/events.jsonl`,
    );
    expect(copilotSessionEventsPath({ env: {}, sessionId })).toBe(path.join(homedir(), '.copilot', 'session-state', sessionId, 'events.jsonl'));
    expect(copilotSessionEventsPath({ env: { HOME: '/home/runtime' }, sessionId: '../elsewhere' })).toBeUndefined();
    expect(copilotSessionEventsPath({ env: { HOME: '/home/runtime' }, sessionId: 'my session' })).toBeUndefined();
  });
});
