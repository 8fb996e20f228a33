import { readFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writePiHome } from './pi-home.writer';

describe('writing the Pi agent directory', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'switchyard-pi-writer-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('given a Pi home, writes an openai-completions provider, quiet settings and the env to run with', async () => {
    const directory = path.join(root, 'agent');
    const home = await writePiHome({ directory, baseUrl: 'http://127.0.0.1:4000/v1', model: 'mock-model', apiKeyVariable: 'MOCK_KEY' });

    expect(JSON.parse(await readFile(path.join(directory, 'models.json'), 'utf8'))).toEqual({
      providers: {
        switchyard: {
          baseUrl: 'http://127.0.0.1:4000/v1',
          api: 'openai-completions',
          apiKey: 'MOCK_KEY',
          models: [{ id: 'mock-model', name: 'mock-model', reasoning: false, input: ['text'] }],
        },
      },
    });
    expect(JSON.parse(await readFile(path.join(directory, 'settings.json'), 'utf8'))).toMatchObject({
      defaultProvider: 'switchyard',
      defaultModel: 'mock-model',
      enableInstallTelemetry: false,
    });
    expect(home.env).toEqual({ PI_CODING_AGENT_DIR: directory, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' });
    expect((await stat(home.modelsPath)).mode & 0o777).toBe(0o600);
  });

  it('given an omp home, writes models.yml (JSON is YAML) and no Pi settings file', async () => {
    const directory = path.join(root, 'omp-agent');
    const home = await writePiHome({
      directory,
      baseUrl: 'http://127.0.0.1:4000/v1',
      model: 'mock-model',
      apiKeyVariable: 'MOCK_KEY',
      provider: 'mock',
      dialect: 'omp',
      compat: { supportsDeveloperRole: false },
    });

    expect(home.modelsPath).toBe(path.join(directory, 'models.yml'));
    expect(home.settingsPath).toBeUndefined();
    expect(JSON.parse(await readFile(home.modelsPath, 'utf8'))).toMatchObject({ providers: { mock: { compat: { supportsDeveloperRole: false } } } });
  });
});
