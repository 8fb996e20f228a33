import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeOpenCodeHome } from './opencode-home.writer';

describe('writeOpenCodeHome', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'switchyard-opencode-writer-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('points OpenCode at one OpenAI-compatible provider, keeps the key in the env, and turns outside traffic off', async () => {
    const home = await writeOpenCodeHome({ directory, baseUrl: 'http://127.0.0.1:4000/v1', model: 'mock-model', apiKeyVariable: 'MOCK_KEY' });

    expect(home.configPath).toBe(path.join(directory, 'config', 'opencode', 'opencode.json'));
    expect(home.model).toBe('switchyard/mock-model');
    expect(JSON.parse(readFileSync(home.configPath, 'utf8'))).toMatchObject({
      autoupdate: false,
      share: 'disabled',
      model: 'switchyard/mock-model',
      provider: {
        switchyard: {
          npm: '@ai-sdk/openai-compatible',
          options: { baseURL: 'http://127.0.0.1:4000/v1', apiKey: '{env:MOCK_KEY}' },
          models: { 'mock-model': { tool_call: true } },
        },
      },
    });
    expect(home.env).toEqual({
      XDG_CONFIG_HOME: path.join(directory, 'config'),
      XDG_DATA_HOME: path.join(directory, 'data'),
      XDG_CACHE_HOME: path.join(directory, 'cache'),
      XDG_STATE_HOME: path.join(directory, 'state'),
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_SHARE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      npm_config_offline: 'true',
    });
  });

  it('writes a DevEco home under its own names', async () => {
    const home = await writeOpenCodeHome({ directory, baseUrl: 'http://127.0.0.1:4000/v1', model: 'm', apiKeyVariable: 'K', dialect: 'deveco', providerId: 'local' });
    expect(home.configPath).toBe(path.join(directory, 'config', 'deveco', 'deveco.json'));
    expect(home.model).toBe('local/m');
    expect(home.env).toMatchObject({ DEVECO_DISABLE_AUTOUPDATE: '1', DEVECO_DISABLE_MODELS_FETCH: '1' });
  });
});
