import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { realCli } from '../conformance/real-cli.spec-helper';
import { writeOpenCodeHome } from './opencode-home.writer';
import { ensureOpenCodeStore } from './opencode-store.initializer';

/** The real OpenCode CLI (tests/agent-clis): its store made once, before runs that share it start. */
describe('OpenCode store initializer on the real CLI', () => {
  let home: string;

  beforeEach(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'switchyard-opencode-store-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('creates the store once for callers that arrive together, and finds it there afterwards', async () => {
    const openCodeHome = await writeOpenCodeHome({ directory: home, baseUrl: 'http://127.0.0.1:9/v1', model: 'mock-model', apiKeyVariable: 'OPENAI_API_KEY' });
    const options = { executablePath: realCli('opencode'), environment: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, ...openCodeHome.env } };

    const together = [ensureOpenCodeStore(options), ensureOpenCodeStore(options), ensureOpenCodeStore(options)];
    const [first, ...others] = await Promise.all(together);

    expect(first).toEqual({ state: 'created' });
    // The same creation answered all three: one first start, not three racing.
    for (const other of others) expect(other).toBe(first);
    expect(existsSync(path.join(openCodeHome.env['XDG_DATA_HOME']!, 'opencode', 'opencode.db'))).toBe(true);
    await expect(ensureOpenCodeStore(options)).resolves.toEqual({ state: 'present' });
  }, 120_000);

  it('says why when the CLI cannot create it', async () => {
    const environment = { PATH: '/usr/bin:/bin', HOME: home, XDG_DATA_HOME: path.join(home, 'data') };
    const failed = await ensureOpenCodeStore({ executablePath: '/bin/false', environment });
    expect(failed).toEqual({ state: 'failed', detail: expect.stringContaining('false session list: exit 1') });
  });
});
