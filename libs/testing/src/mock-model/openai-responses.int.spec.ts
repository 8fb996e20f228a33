import { codexRequest, CODEX_EXEC_COMMAND_TOOL } from './cli-request.samples';
import { startMockModelServer, type MockModelServer } from './mock-model.server';
import { postForEvents, postJson, readEventsThenDisconnect, type DecodedServerSentEvent, type WireJson } from './mock-model.test-support';

const completedOutput = (events: DecodedServerSentEvent[]): WireJson[] => events.find((event) => event.event === 'response.completed')?.data.response.output as WireJson[];
const streamedText = (events: DecodedServerSentEvent[]): string =>
  events.filter((event) => event.event === 'response.output_text.delta').map((event) => event.data.delta as string).join('');

describe('mock model server: OpenAI Responses (Codex)', () => {
  let server: MockModelServer;
  let endpoint: string;
  beforeEach(async () => {
    server = await startMockModelServer();
    endpoint = `${server.url}/v1/responses`;
  });
  afterEach(async () => {
    await server.stop();
  });

  it('streams a text turn ending in response.completed with usage', async () => {
    const { status, events } = await postForEvents(endpoint, codexRequest({ prompt: '[[scenario:text]]' }));
    expect(status).toBe(200);
    expect(events[0]?.event).toBe('response.created');
    expect(events.at(-1)?.event).toBe('response.completed');
    expect(events.at(-1)?.data.response.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) });
    expect(streamedText(events)).toBe('Mock model reply.');
    expect(completedOutput(events)).toEqual([expect.objectContaining({ type: 'message', role: 'assistant' })]);
  });

  it('calls the shell tool with an argv command', async () => {
    const { events } = await postForEvents(endpoint, codexRequest({ prompt: "[[scenario:tool-write-file a.txt it's ok]]" }));
    const done = events.find((event) => event.event === 'response.output_item.done');
    expect(done?.data.item).toMatchObject({ type: 'function_call', name: 'shell', call_id: expect.any(String) });
    expect(JSON.parse(done?.data.item.arguments as string)).toEqual({ command: ['bash', '-lc', `printf '%s' 'it'\\''s ok' > 'a.txt'`] });
  });

  it('calls exec_command with a cmd string', async () => {
    const { events } = await postForEvents(endpoint, codexRequest({ prompt: 'go', shellTool: CODEX_EXEC_COMMAND_TOOL }));
    const [item] = completedOutput(events);
    expect(item).toMatchObject({ type: 'function_call', name: 'exec_command' });
    expect(JSON.parse(item.arguments as string)).toEqual({ cmd: 'echo mock-model-tool-call' });
  });

  it('streams the final text after a function_call_output', async () => {
    const { events } = await postForEvents(endpoint, codexRequest({ prompt: 'go', toolOutput: 'exit 0' }));
    expect(streamedText(events)).toBe('Mock model final answer. Tool output: exit 0');
  });

  it('answers without streaming when stream is not true', async () => {
    const { json } = await postJson(endpoint, codexRequest({ prompt: '[[scenario:text]]', stream: false }));
    expect(json).toMatchObject({ object: 'response', status: 'completed', output: [{ type: 'message' }] });
  });

  it('fails the error scenario with an OpenAI error body', async () => {
    const { status, headers, json } = await postJson(endpoint, codexRequest({ prompt: '[[scenario:error 401]]' }));
    expect(status).toBe(401);
    expect(headers.get('x-should-retry')).toBe('false');
    expect(json).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
  });

  it('notices a client that disconnects from a slow stream', async () => {
    const events = await readEventsThenDisconnect({ url: endpoint, body: codexRequest({ prompt: '[[scenario:slow 20000]]' }), eventsBeforeAbort: 5 });
    expect(events.map((event) => event.event)).toContain('response.output_text.delta');
    await expect(server.waitForRequest((request) => request.outcome === 'client-disconnected', 5_000)).resolves.toMatchObject({ api: 'openai-responses' });
  });

  it('repeats a secret from an earlier turn (resume proof) and records the history it was sent', async () => {
    const { events } = await postForEvents(endpoint, codexRequest({ prompt: '[[scenario:text]] recall', earlierPrompts: ['[[secret:mango]]'] }));
    expect(streamedText(events)).toContain('mango');
    const [request] = server.requests();
    expect(JSON.stringify(request?.body)).toContain('[[secret:mango]]');
  });
});
