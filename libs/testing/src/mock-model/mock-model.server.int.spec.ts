import { chatCompletionsRequest } from './cli-request.samples';
import { routeOf, startMockModelServer, type MockModelServer } from './mock-model.server';
import { postJson } from './mock-model.test-support';

describe('mock model server', () => {
  let server: MockModelServer;
  const lines: string[] = [];
  beforeEach(async () => {
    lines.length = 0;
    server = await startMockModelServer({ log: (line) => lines.push(line) });
  });
  afterEach(async () => {
    await server.stop();
  });

  it('listens on a free port on 127.0.0.1', () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('waits for a request still to come, and resets its record', async () => {
    const waiting = server.waitForRequest((request) => request.api === 'openai-chat' && request.outcome === 'completed', 5_000);
    await postJson(`${server.url}/v1/chat/completions`, chatCompletionsRequest({ prompt: 'hi', stream: false }));
    await expect(waiting).resolves.toMatchObject({ method: 'POST', path: '/v1/chat/completions', decision: { kind: 'tool-call' } });
    expect(server.requests()).toHaveLength(1);
    server.reset();
    expect(server.requests()).toEqual([]);
  });

  it('rejects a wait that times out', async () => {
    await expect(server.waitForRequest(() => false, 50)).rejects.toThrow(/No matching mock model request within 50 ms/);
  });

  it('answers unknown routes with 404 and bodies that are not JSON with a provider error', async () => {
    expect((await fetch(`${server.url}/nowhere`)).status).toBe(404);
    const response = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: 'not json' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('logs each request and decision through the given logger', async () => {
    await postJson(`${server.url}/v1/chat/completions`, chatCompletionsRequest({ prompt: 'hi', stream: false }));
    expect(lines.join('\n')).toMatch(/POST \/v1\/chat\/completions -> model[\s\S]*decided tool call run_shell_command/);
  });

  it('routes with and without the /v1 prefix', () => {
    expect(routeOf('POST', '/responses')).toMatchObject({ kind: 'model', api: 'openai-responses' });
    expect(routeOf('POST', '/v1/chat/completions/')).toMatchObject({ kind: 'model', api: 'openai-chat' });
    expect(routeOf('POST', '/v1/messages/count_tokens')).toEqual({ kind: 'count-tokens', api: 'anthropic-messages' });
    expect(routeOf('POST', '/v1beta/models/gemini-2.5-pro:countTokens')).toEqual({ kind: 'count-tokens', api: 'gemini' });
    expect(routeOf('GET', '/v1beta/models')).toEqual({ kind: 'model-list', gemini: true });
    expect(routeOf('DELETE', '/v1/messages')).toEqual({ kind: 'not-found' });
  });
});
