import { chatCompletionsRequest } from './cli-request.samples';
import { startMockModelServer, type MockModelServer } from './mock-model.server';
import { postForEvents, postJson, readEventsThenDisconnect, type DecodedServerSentEvent, type WireJson } from './mock-model.test-support';

const chunks = (events: DecodedServerSentEvent[]): DecodedServerSentEvent['data'][] => events.map((event): WireJson => event.data).filter((data) => data !== '[DONE]');
const streamedText = (events: DecodedServerSentEvent[]): string => chunks(events).map((chunk) => (chunk.choices[0]?.delta.content as string | undefined) ?? '').join('');

describe('mock model server: OpenAI Chat Completions (Qwen Code, OpenCode, Pi)', () => {
  let server: MockModelServer;
  let endpoint: string;
  beforeEach(async () => {
    server = await startMockModelServer({ defaultModel: 'qwen3-coder-plus' });
    endpoint = `${server.url}/v1/chat/completions`;
  });
  afterEach(async () => {
    await server.stop();
  });

  it('lists models', async () => {
    const response = await fetch(`${server.url}/v1/models`);
    expect(await response.json()).toEqual({ object: 'list', data: [expect.objectContaining({ id: 'qwen3-coder-plus', object: 'model' })] });
  });

  it('streams a text turn ending with finish_reason, usage and [DONE]', async () => {
    const { events } = await postForEvents(endpoint, chatCompletionsRequest({ prompt: '[[scenario:text]]' }));
    expect(events.at(-1)?.data).toBe('[DONE]');
    expect(streamedText(events)).toBe('Mock model reply.');
    expect(chunks(events).at(-1)).toMatchObject({ choices: [{ finish_reason: 'stop' }], usage: { total_tokens: expect.any(Number) } });
  });

  it('streams one tool call with the schema\'s required extras', async () => {
    const { events } = await postForEvents(endpoint, chatCompletionsRequest({ prompt: '[[scenario:tool-command touch done.txt]]' }));
    const calls = chunks(events).flatMap((chunk) => (chunk.choices[0]?.delta.tool_calls ?? []) as Array<{ id?: string; function: { name?: string; arguments: string } }>);
    expect(calls[0]).toMatchObject({ id: expect.any(String), function: { name: 'run_shell_command' } });
    expect(JSON.parse(calls.map((call) => call.function.arguments).join(''))).toEqual({ command: 'touch done.txt', is_background: false });
    expect(chunks(events).at(-1).choices[0].finish_reason).toBe('tool_calls');
  });

  it('streams the final text after a tool message', async () => {
    const { events } = await postForEvents(endpoint, chatCompletionsRequest({ prompt: 'go', toolOutput: 'fine' }));
    expect(streamedText(events)).toBe('Mock model final answer. Tool output: fine');
  });

  it('answers without streaming when stream is not true', async () => {
    const { json } = await postJson(endpoint, chatCompletionsRequest({ prompt: 'go', stream: false }));
    expect(json).toMatchObject({ object: 'chat.completion', choices: [{ message: { tool_calls: [{ function: { name: 'run_shell_command' } }] }, finish_reason: 'tool_calls' }] });
  });

  it('fails the error scenario with an OpenAI error body', async () => {
    const { status, json } = await postJson(endpoint, chatCompletionsRequest({ prompt: '[[scenario:error 503]]' }));
    expect(status).toBe(503);
    expect(json.error).toMatchObject({ type: 'server_error' });
  });

  it('notices a client that disconnects from a slow stream', async () => {
    await readEventsThenDisconnect({ url: endpoint, body: chatCompletionsRequest({ prompt: '[[scenario:slow 20000]]' }), eventsBeforeAbort: 3 });
    await expect(server.waitForRequest((request) => request.outcome === 'client-disconnected', 5_000)).resolves.toMatchObject({ api: 'openai-chat' });
  });

  it('repeats a secret from an earlier turn (resume proof)', async () => {
    const { events } = await postForEvents(endpoint, chatCompletionsRequest({ prompt: 'go', earlierPrompts: ['[[scenario:remember walnut]]'], toolOutput: 'ok' }));
    expect(streamedText(events)).toContain('Remembered from earlier turns: walnut.');
  });
});
