import type { AnswerDecision } from './answer.helpers';
import { encodeAnthropicError, encodeAnthropicMessagesJson, encodeAnthropicMessagesStream } from './anthropic-messages.encoder';
import type { EncodingContext } from './conversation.types';
import { encodeGeminiError, encodeGeminiJson, encodeGeminiStream } from './gemini.encoder';
import { encodeOpenAiChatJson, encodeOpenAiChatStream } from './openai-chat.encoder';
import { encodeOpenAiError, encodeOpenAiResponsesJson, encodeOpenAiResponsesStream } from './openai-responses.encoder';
import type { WireJson } from './mock-model.test-support';
import { formatServerSentEvent } from './sse.writer';

const context = (): EncodingContext => {
  let counter = 0;
  return { model: 'mock', usage: { inputTokens: 10, outputTokens: 3 }, createdAtSeconds: 1_700_000_000, newId: (prefix) => `${prefix}${(counter += 1)}` };
};
const text: AnswerDecision = { kind: 'text', text: 'Hello there you', deltas: ['Hello ', 'there ', 'you'], deltaIntervalMilliseconds: 0 };
const toolCall: AnswerDecision = {
  kind: 'tool-call',
  tool: { kind: 'function', name: 'Bash', parameters: undefined },
  arguments: { command: 'echo hi' },
  command: 'echo hi',
};
const dataOf = (events: ReturnType<typeof encodeAnthropicMessagesStream>): WireJson[] => events.map((event): WireJson => event.data);

describe('Anthropic Messages encoder', () => {
  it('streams text as message_start, one text block, message_delta with end_turn and usage, message_stop', () => {
    const events = encodeAnthropicMessagesStream(text, context());
    expect(events.map((event) => event.event)).toEqual([
      'message_start', 'ping', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop',
    ]);
    expect(events.every((event) => event.event === (event.data as { type: string }).type)).toBe(true);
    const data = dataOf(events);
    expect(data[0].message).toMatchObject({ role: 'assistant', model: 'mock', content: [], stop_reason: null, usage: { input_tokens: 10 } });
    expect(data.slice(3, 6).map((event) => event.delta.text as string).join('')).toBe('Hello there you');
    expect(data[7]).toMatchObject({ delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } });
  });

  it('streams a tool call as a tool_use block whose input_json_delta pieces parse to the arguments', () => {
    const data = dataOf(encodeAnthropicMessagesStream(toolCall, context()));
    expect(data[2].content_block).toMatchObject({ type: 'tool_use', name: 'Bash', input: {} });
    const json = data.filter((event) => event.delta?.type === 'input_json_delta').map((event) => event.delta.partial_json as string).join('');
    expect(JSON.parse(json)).toEqual({ command: 'echo hi' });
    expect(data.at(-2).delta.stop_reason).toBe('tool_use');
  });

  it('answers non-streaming with a message and errors in the Anthropic shape', () => {
    expect(encodeAnthropicMessagesJson(toolCall, context())).toMatchObject({ type: 'message', content: [{ type: 'tool_use', input: { command: 'echo hi' } }], stop_reason: 'tool_use' });
    expect(encodeAnthropicError(529, 'busy')).toEqual({ status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'busy' } } });
  });
});

describe('OpenAI Responses encoder', () => {
  it('streams text with sequence numbers, one message item and a completed response with usage', () => {
    const events = encodeOpenAiResponsesStream(text, context());
    const data = dataOf(events);
    expect(events.map((event) => event.event)).toEqual([
      'response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added',
      'response.output_text.delta', 'response.output_text.delta', 'response.output_text.delta',
      'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed',
    ]);
    expect(data.map((event) => event.sequence_number as number)).toEqual(data.map((_, index) => index));
    expect(data[9].item).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello there you' }] });
    expect(data[10].response).toMatchObject({ status: 'completed', usage: { input_tokens: 10, output_tokens: 3, total_tokens: 13 } });
  });

  it('streams a function call with arguments as a JSON string', () => {
    const data = dataOf(encodeOpenAiResponsesStream({ ...toolCall, tool: { kind: 'function', name: 'shell', parameters: undefined } }, context()));
    const done = data.find((event) => event.type === 'response.output_item.done');
    expect(done.item).toMatchObject({ type: 'function_call', name: 'shell', call_id: expect.stringMatching(/^call_/) });
    expect(JSON.parse(done.item.arguments as string)).toEqual({ command: 'echo hi' });
    const deltas = data.filter((event) => event.type === 'response.function_call_arguments.delta').map((event) => event.delta as string).join('');
    expect(deltas).toBe(done.item.arguments);
  });

  it('answers local_shell with a local_shell_call item, non-streaming with a response, errors in the OpenAI shape', () => {
    const local: AnswerDecision = { kind: 'tool-call', tool: { kind: 'local-shell', name: 'local_shell', parameters: undefined }, arguments: { command: ['bash', '-lc', 'ls'] }, command: 'ls' };
    expect(encodeOpenAiResponsesJson(local, context())).toMatchObject({ object: 'response', output: [{ type: 'local_shell_call', action: { type: 'exec', command: ['bash', '-lc', 'ls'] } }] });
    expect(encodeOpenAiError(429, 'slow down').body).toEqual({ error: { message: 'slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' } });
  });
});

describe('OpenAI Chat Completions encoder', () => {
  it('streams text chunks, a finish chunk with usage and [DONE]', () => {
    const data = dataOf(encodeOpenAiChatStream(text, context()));
    expect(data.at(-1)).toBe('[DONE]');
    expect(data.slice(0, -1).every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
    expect(data.slice(0, -2).map((chunk) => chunk.choices[0].delta.content as string).join('')).toBe('Hello there you');
    expect(data.at(-2)).toMatchObject({ choices: [{ finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 } });
  });

  it('streams a tool call with id and name first, then the argument pieces', () => {
    const data = dataOf(encodeOpenAiChatStream(toolCall, context()));
    expect(data[0].choices[0].delta.tool_calls[0]).toMatchObject({ index: 0, id: expect.any(String), type: 'function', function: { name: 'Bash', arguments: '' } });
    const json = data.slice(1, -2).map((chunk) => chunk.choices[0].delta.tool_calls[0].function.arguments as string).join('');
    expect(JSON.parse(json)).toEqual({ command: 'echo hi' });
    expect(data.at(-2).choices[0].finish_reason).toBe('tool_calls');
    expect(encodeOpenAiChatJson(toolCall, context())).toMatchObject({ object: 'chat.completion', choices: [{ finish_reason: 'tool_calls' }] });
  });
});

describe('Gemini encoder', () => {
  it('streams text chunks, the last with finishReason and usageMetadata', () => {
    const data = dataOf(encodeGeminiStream(text, context()));
    expect(data.map((chunk) => chunk.candidates[0].content.parts[0].text as string).join('')).toBe('Hello there you');
    expect(data.slice(0, -1).every((chunk) => chunk.candidates[0].finishReason === undefined)).toBe(true);
    expect(data.at(-1)).toMatchObject({ candidates: [{ finishReason: 'STOP', content: { role: 'model' } }], usageMetadata: { totalTokenCount: 13 } });
  });

  it('answers a tool call with one functionCall part, JSON answers as text, errors in the Google shape', () => {
    expect(encodeGeminiJson(toolCall, context())).toMatchObject({ candidates: [{ content: { parts: [{ functionCall: { name: 'Bash', args: { command: 'echo hi' } } }] } }] });
    expect(encodeGeminiJson({ kind: 'json', value: { a: 1 }, text: '{"a":1}' }, context())).toMatchObject({ candidates: [{ content: { parts: [{ text: '{"a":1}' }] } }] });
    expect(encodeGeminiError(400, 'bad').body).toEqual({ error: { code: 400, message: 'bad', status: 'INVALID_ARGUMENT' } });
  });
});

describe('formatServerSentEvent', () => {
  it('writes the event name and one data line per line of data', () => {
    expect(formatServerSentEvent({ event: 'ping', data: { type: 'ping' } })).toBe('event: ping\ndata: {"type":"ping"}\n\n');
    expect(formatServerSentEvent({ data: 'a\nb' })).toBe('data: a\ndata: b\n\n');
  });
});
