import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitOutGeminiSameMinuteLoad } from './gemini-session.guard';

describe('waitOutGeminiSameMinuteLoad', () => {
  let home: string;
  const sessionId = 'd06417e7-62e5-4472-8650-45ab94a9f053';
  const at = (iso: string): (() => number) => () => Date.parse(iso);

  beforeEach(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'switchyard-gemini-guard-'));
    const chats = path.join(home, '.gemini', 'tmp', 'work', 'chats');
    await mkdir(chats, { recursive: true });
    await writeFile(path.join(chats, 'session-2026-11-29T23-23-d06417e7.jsonl'), '');
    await writeFile(path.join(chats, 'session-2026-11-29T23-24-aaaaaaaa.jsonl'), '');
  });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('waits into the next UTC minute when the session was started in the current one', async () => {
    const slept: number[] = [];
    const sleep = (milliseconds: number): Promise<void> => {
      slept.push(milliseconds);
      return Promise.resolve();
    };
    await expect(waitOutGeminiSameMinuteLoad({ home, sessionId, now: at('2026-11-29T23:23:40.000Z'), sleep })).resolves.toBe(20_250);
    expect(slept).toEqual([20_250]);
  });

  it('does not wait for a session of an earlier minute, another session, or an empty HOME', async () => {
    const sleep = (): Promise<void> => Promise.reject(new Error('should not sleep'));
    await expect(waitOutGeminiSameMinuteLoad({ home, sessionId, now: at('2026-11-29T23:24:01.000Z'), sleep })).resolves.toBe(0);
    await expect(waitOutGeminiSameMinuteLoad({ home, sessionId: 'bbbbbbbb-0000', now: at('2026-11-29T23:23:10.000Z'), sleep })).resolves.toBe(0);
    await expect(waitOutGeminiSameMinuteLoad({ home: path.join(home, 'missing'), sessionId, now: at('2026-11-29T23:23:10.000Z'), sleep })).resolves.toBe(0);
  });
});
