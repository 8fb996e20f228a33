import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { qwenModelEnvironment, writeQwenHome } from './qwen-home.writer';

describe('writeQwenHome', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'switchyard-qwen-home-unit-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('writes ~/.qwen/settings.json with updates, usage statistics, telemetry and auto-memory off', async () => {
    const written = await writeQwenHome({ home });

    expect(written.settingsPath).toBe(path.join(home, '.qwen', 'settings.json'));
    expect(JSON.parse(await readFile(written.settingsPath, 'utf8'))).toEqual({
      general: { enableAutoUpdate: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
      ide: { enabled: false },
      model: { generationConfig: { maxRetries: 1 } },
    });
    expect(written.env).toEqual({ QWEN_CODE_NO_RELAUNCH: 'true' });
  });

  it('names the OpenAI-compatible model variables for --auth-type openai', () => {
    expect(qwenModelEnvironment({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'key', model: 'qwen3-coder' })).toEqual({
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      OPENAI_API_KEY: 'key',
      OPENAI_MODEL: 'qwen3-coder',
    });
  });
});
