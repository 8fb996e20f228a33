import { geminiRequest, geminiRouterRequest } from './cli-request.samples';
import { startMockModelServer, type MockModelServer } from './mock-model.server';
import { postForEvents, postJson, readEventsThenDisconnect, type DecodedServerSentEvent, type WireJson } from './mock-model.test-support';

type Part = { readonly text?: string; readonly functionCall?: unknown };
const parts = (events: DecodedServerSentEvent[]): Part[] => events.flatMap((event) => event.data.candidates[0].content.parts as Part[]);
const streamedText = (events: DecodedServerSentEvent[]): string => parts(events).map((part) => part.text ?? '').join('');

describe('mock model server: Gemini (Gemini CLI)', () => {
  let server: MockModelServer;
  let streamEndpoint: string;
  beforeEach(async () => {
    server = await startMockModelServer();
    streamEndpoint = `${server.url}/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`;
  });
  afterEach(async () => {
    await server.stop();
  });

  it('answers the router call with JSON that satisfies its schema', async () => {
    const { status, json } = await postJson(`${server.url}/v1beta/models/gemini-2.5-flash-lite:generateContent`, geminiRouterRequest('write a file'));
    expect(status).toBe(200);
    const answer = JSON.parse(json.candidates[0].content.parts[0].text as string);
    expect(answer).toEqual({ complexity_reasoning: expect.any(String), complexity_score: expect.any(Number) });
    expect(answer.complexity_score).toBeGreaterThanOrEqual(1);
    expect(json).toMatchObject({ candidates: [{ finishReason: 'STOP' }], modelVersion: 'gemini-2.5-flash-lite' });
  });

  it('streams a text turn, the last chunk with finishReason and usageMetadata', async () => {
    const { contentType, events } = await postForEvents(streamEndpoint, geminiRequest({ prompt: '[[scenario:text]]' }));
    expect(contentType).toMatch(/^text\/event-stream/);
    expect(streamedText(events)).toBe('Mock model reply.');
    expect(events.at(-1)?.data).toMatchObject({ candidates: [{ finishReason: 'STOP' }], usageMetadata: { totalTokenCount: expect.any(Number) } });
  });

  it('streams one functionCall to run_shell_command', async () => {
    const { events } = await postForEvents(streamEndpoint, geminiRequest({ prompt: '[[scenario:tool-write-file notes.md done]]' }));
    expect(parts(events)).toEqual([{ functionCall: { name: 'run_shell_command', args: { command: `printf '%s' 'done' > 'notes.md'` } } }]);
  });

  it('streams the final text after a functionResponse', async () => {
    const { events } = await postForEvents(streamEndpoint, geminiRequest({ prompt: 'go', toolOutput: 'Output: done' }));
    expect(streamedText(events)).toBe('Mock model final answer. Tool output: Output: done');
  });

  it('answers streamGenerateContent without alt=sse as one JSON array', async () => {
    const { json } = await postJson(`${server.url}/v1beta/models/gemini-2.5-pro:streamGenerateContent`, geminiRequest({ prompt: '[[scenario:text]]' }));
    expect(Array.isArray(json)).toBe(true);
    expect((json as WireJson[]).at(-1)).toMatchObject({ candidates: [{ finishReason: 'STOP' }] });
  });

  it('fails the error scenario with a Google error body', async () => {
    const { status, json } = await postJson(streamEndpoint, geminiRequest({ prompt: '[[scenario:error 400]]' }));
    expect(status).toBe(400);
    expect(json).toEqual({ error: { code: 400, message: expect.any(String), status: 'INVALID_ARGUMENT' } });
  });

  it('notices a client that disconnects from a slow stream', async () => {
    await readEventsThenDisconnect({ url: streamEndpoint, body: geminiRequest({ prompt: '[[scenario:slow 20000]]' }), eventsBeforeAbort: 2 });
    await expect(server.waitForRequest((request) => request.outcome === 'client-disconnected', 5_000)).resolves.toMatchObject({ api: 'gemini' });
  });

  it('repeats a secret from an earlier turn (resume proof) and keeps the API key out of the record', async () => {
    const { events } = await postForEvents(`${streamEndpoint}&key=secret-key`, geminiRequest({ prompt: '[[scenario:text]]', earlierPrompts: ['[[secret:papaya]]'] }), { 'x-goog-api-key': 'secret-key' });
    expect(streamedText(events)).toContain('papaya');
    const [request] = server.requests();
    expect(request).toMatchObject({ path: '/v1beta/models/gemini-2.5-pro:streamGenerateContent', query: { alt: 'sse' } });
    expect(JSON.stringify(request)).not.toContain('secret-key');
  });
});
