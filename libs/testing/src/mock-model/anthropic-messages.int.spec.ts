import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { claudeCodeRequest } from './cli-request.samples';
import { startMockModelServer, type MockModelServer } from './mock-model.server';
import { postForEvents, postJson, readEventsThenDisconnect, type DecodedServerSentEvent } from './mock-model.test-support';

const streamedText = (events: DecodedServerSentEvent[]): string =>
  events.filter((event) => event.data.delta?.type === 'text_delta').map((event) => event.data.delta.text as string).join('');
const streamedToolInput = (events: DecodedServerSentEvent[]): unknown =>
  JSON.parse(events.filter((event) => event.data.delta?.type === 'input_json_delta').map((event) => event.data.delta.partial_json as string).join(''));

describe('mock model server: Anthropic Messages (Claude Code)', () => {
  let server: MockModelServer;
  let endpoint: string;
  beforeEach(async () => {
    server = await startMockModelServer();
    endpoint = `${server.url}/v1/messages?beta=true`;
  });
  afterEach(async () => {
    await server.stop();
  });

  it('answers the HEAD / and GET / probes', async () => {
    expect((await fetch(server.url, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${server.url}/`)).status).toBe(200);
  });

  it('streams a text turn', async () => {
    const { status, contentType, events } = await postForEvents(endpoint, claudeCodeRequest({ prompt: '[[scenario:text]] hi' }));
    expect(status).toBe(200);
    expect(contentType).toMatch(/^text\/event-stream/);
    expect(events.map((event) => event.event)).toEqual(expect.arrayContaining(['message_start', 'content_block_start', 'content_block_stop', 'message_delta', 'message_stop']));
    expect(streamedText(events)).toBe('Mock model reply.');
    expect(events.find((event) => event.event === 'message_delta')?.data.delta.stop_reason).toBe('end_turn');
  });

  it('streams one Bash call whose command really writes the requested file', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'mock-model-'));
    try {
      const target = path.join(directory, 'out.txt');
      const { events } = await postForEvents(endpoint, claudeCodeRequest({ prompt: `[[scenario:tool-write-file ${target} hello from the mock]]` }));
      const start = events.find((event) => event.event === 'content_block_start');
      expect(start?.data.content_block).toMatchObject({ type: 'tool_use', name: 'Bash' });
      const input = streamedToolInput(events) as { command: string };
      expect(Object.keys(input)).toEqual(['command']);
      execFileSync('bash', ['-c', input.command]);
      expect(readFileSync(target, 'utf8')).toBe('hello from the mock');
      expect(events.find((event) => event.event === 'message_delta')?.data.delta.stop_reason).toBe('tool_use');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('streams the final text after a tool_result', async () => {
    const { events } = await postForEvents(endpoint, claudeCodeRequest({ prompt: 'go', toolOutput: 'written' }));
    expect(streamedText(events)).toBe('Mock model final answer. Tool output: written');
  });

  it('answers without streaming when stream is not true', async () => {
    const { status, json } = await postJson(`${server.url}/v1/messages`, claudeCodeRequest({ prompt: 'go', stream: false }));
    expect(status).toBe(200);
    expect(json).toMatchObject({ type: 'message', role: 'assistant', stop_reason: 'tool_use', content: [{ type: 'tool_use', name: 'Bash' }] });
  });

  it('fails the error scenario with an Anthropic error body and no retry hint', async () => {
    const { status, headers, json } = await postJson(endpoint, claudeCodeRequest({ prompt: '[[scenario:error 400]]' }));
    expect(status).toBe(400);
    expect(headers.get('x-should-retry')).toBe('false');
    expect(json).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('tool_result') } });
  });

  it('notices a client that disconnects from a slow stream, and keeps serving', async () => {
    const startedAt = Date.now();
    const events = await readEventsThenDisconnect({ url: endpoint, body: claudeCodeRequest({ prompt: '[[scenario:slow 20000]]' }), eventsBeforeAbort: 4 });
    expect(events[0]?.event).toBe('message_start');
    const request = await server.waitForRequest((candidate) => candidate.outcome === 'client-disconnected', 5_000);
    expect(request.decision).toMatchObject({ kind: 'text' });
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect((await postForEvents(endpoint, claudeCodeRequest({ prompt: '[[scenario:text]]' }))).status).toBe(200);
  });

  it('repeats a secret from an earlier turn (resume proof)', async () => {
    const { events } = await postForEvents(endpoint, claudeCodeRequest({ prompt: '[[scenario:text]] and now?', earlierPrompts: ['[[secret:pineapple]] hello'] }));
    expect(streamedText(events)).toContain('Remembered from earlier turns: pineapple.');
  });

  it('records what the CLI sent, without credentials', async () => {
    await postForEvents(endpoint, claudeCodeRequest({ prompt: 'recorded' }), { 'x-api-key': 'secret-key', authorization: 'Bearer secret', 'anthropic-version': '2023-06-01' });
    const [request] = server.requests();
    expect(request).toMatchObject({ method: 'POST', path: '/v1/messages', query: { beta: 'true' }, api: 'anthropic-messages', status: 200, outcome: 'completed' });
    expect(request?.headers).toMatchObject({ 'anthropic-version': '2023-06-01' });
    expect(request?.headers).not.toHaveProperty('x-api-key');
    expect(request?.headers).not.toHaveProperty('authorization');
    expect(JSON.stringify(request?.body)).toContain('recorded');
  });
});
