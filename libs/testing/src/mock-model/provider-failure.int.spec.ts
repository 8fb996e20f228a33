import { chatCompletionsRequest, claudeCodeRequest, codexRequest, geminiRequest } from './cli-request.samples';
import { startMockModelServer, type MockModelServer } from './mock-model.server';
import { postJson, type WireJson } from './mock-model.test-support';

/** The decoded bodies, in order. */
function bodiesOf(replies: ReadonlyArray<{ readonly json: WireJson }>): WireJson[] {
  const bodies: WireJson[] = [];
  for (const reply of replies) bodies.push(reply.json);
  return bodies;
}

describe('mock model server: scripted provider failures', () => {
  let server: MockModelServer;
  beforeEach(async () => {
    server = await startMockModelServer();
  });
  afterEach(async () => {
    await server.stop();
  });

  const endpoints = () => ({
    anthropic: { url: `${server.url}/v1/messages`, body: (prompt: string) => claudeCodeRequest({ prompt }) },
    chat: { url: `${server.url}/v1/chat/completions`, body: (prompt: string) => chatCompletionsRequest({ prompt }) },
    responses: { url: `${server.url}/v1/responses`, body: (prompt: string) => codexRequest({ prompt }) },
    gemini: { url: `${server.url}/v1beta/models/mock-model:streamGenerateContent?alt=sse`, body: (prompt: string) => geminiRequest({ prompt }) },
  });

  it('answers a 429 with retry-after and each provider\'s rate-limit body', async () => {
    const replies = await Promise.all(Object.values(endpoints()).map(({ url, body }) => postJson(url, body('[[scenario:error 429]]'))));
    for (const reply of replies) {
      expect(reply.status).toBe(429);
      expect(reply.headers.get('retry-after')).toBe('1');
    }
    const [anthropic, chat, responses, gemini] = bodiesOf(replies);
    expect(anthropic).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(chat).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    expect(responses).toMatchObject({ error: { code: 'rate_limit_exceeded', message: expect.stringContaining('Please try again in 1s') } });
    expect(gemini).toMatchObject({ error: { status: 'RESOURCE_EXHAUSTED', details: [{ retryDelay: '1s' }] } });
  });

  it('answers a context overflow in each provider\'s words', async () => {
    const replies = await Promise.all(Object.values(endpoints()).map(({ url, body }) => postJson(url, body('[[scenario:context-overflow]]'))));
    expect(replies.map((reply) => reply.status)).toEqual([400, 400, 400, 400]);
    const [anthropic, chat, responses, gemini] = bodiesOf(replies);
    expect(anthropic.error.message).toMatch(/^prompt is too long: \d+ tokens > \d+ maximum$/);
    expect(chat.error).toMatchObject({ code: 'context_length_exceeded', message: expect.stringContaining('maximum context length') });
    expect(responses.error).toMatchObject({ code: 'context_length_exceeded' });
    expect(gemini.error.message).toContain('exceeds the maximum number of tokens allowed');
  });

  it('answers 401 and 500 with the providers\' auth and server error types', async () => {
    const { anthropic, gemini } = endpoints();
    expect((await postJson(anthropic.url, anthropic.body('[[scenario:error 401]]'))).json).toMatchObject({ error: { type: 'authentication_error' } });
    expect((await postJson(gemini.url, gemini.body('[[scenario:error 500]]'))).json).toMatchObject({ error: { code: 500, status: 'INTERNAL' } });
  });

  it('cuts the connection of a reset scenario, and keeps serving', async () => {
    const { anthropic } = endpoints();
    await expect(postJson(anthropic.url, anthropic.body('[[scenario:reset]]'))).rejects.toThrow('fetch failed');
    await expect(server.waitForRequest((request) => request.outcome === 'failed')).resolves.toMatchObject({ decision: { failure: 'connection-reset' } });
    expect((await postJson(anthropic.url, { ...anthropic.body('[[scenario:text]]'), stream: false })).status).toBe(200);
  });

  it('fails an error-once key for the first request only, until reset', async () => {
    const { chat } = endpoints();
    const prompt = '[[scenario:error-once 429 retry-me]] [[scenario:text]]';
    expect((await postJson(chat.url, { ...chat.body(prompt), stream: false })).status).toBe(429);
    expect((await postJson(chat.url, { ...chat.body(prompt), stream: false })).status).toBe(200);
    expect((await postJson(chat.url, { ...chat.body(prompt.replace('retry-me', 'other-key')), stream: false })).status).toBe(429);
    server.reset();
    expect((await postJson(chat.url, { ...chat.body(prompt), stream: false })).status).toBe(429);
  });
});
