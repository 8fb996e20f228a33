import { copilotEnvironment } from './copilot.environment';

describe('copilotEnvironment', () => {
  it('keeps the CLI offline, without self-update, on the given OpenAI-compatible provider and model', () => {
    expect(copilotEnvironment({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'sk-test', model: 'mock-model' })).toEqual({
      COPILOT_OFFLINE: 'true',
      COPILOT_AUTO_UPDATE: 'false',
      COPILOT_PROVIDER_TYPE: 'openai',
      COPILOT_PROVIDER_BASE_URL: 'http://127.0.0.1:4010/v1',
      COPILOT_PROVIDER_WIRE_API: 'completions',
      COPILOT_PROVIDER_API_KEY: 'sk-test',
      COPILOT_MODEL: 'mock-model',
      NO_COLOR: '1',
    });
  });

  it('leaves the key out for a local provider that takes none, and can speak the Responses API', () => {
    const environment = copilotEnvironment({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3', wireApi: 'responses' });
    expect(environment).not.toHaveProperty('COPILOT_PROVIDER_API_KEY');
    expect(environment).toMatchObject({ COPILOT_PROVIDER_WIRE_API: 'responses', COPILOT_OFFLINE: 'true' });
  });
});
