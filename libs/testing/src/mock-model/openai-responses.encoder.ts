import { splitJsonArguments, textDeltas, type AnswerDecision, type ProviderErrorReply } from './answer.helpers';
import type { EncodingContext } from './conversation.types';
import type { ServerSentEvent } from './sse.writer';

type OutputItem = { readonly [key: string]: unknown };

/**
 * OpenAI Responses streaming: `response.created`, `response.in_progress`, then for the one output
 * item `response.output_item.added`, its deltas (`response.output_text.delta` inside a content
 * part, or `response.function_call_arguments.delta`), `response.output_item.done`, and finally
 * `response.completed` with the output and usage. Every event carries a `sequence_number`.
 */
export function encodeOpenAiResponsesStream(decision: AnswerDecision, context: EncodingContext): ServerSentEvent[] {
  const responseId = context.newId('resp_');
  const item = outputItem(decision, context);
  const itemId = item['id'];
  const events: Array<{ type: string; delayMilliseconds?: number; [key: string]: unknown }> = [
    { type: 'response.created', response: responseObject({ responseId, context, status: 'in_progress', output: [] }) },
    { type: 'response.in_progress', response: responseObject({ responseId, context, status: 'in_progress', output: [] }) },
  ];
  if (decision.kind === 'tool-call' && item['type'] === 'function_call') {
    const argumentsJson = String(item['arguments']);
    events.push(
      { type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } },
      ...splitJsonArguments(argumentsJson).map((delta) => ({ type: 'response.function_call_arguments.delta', item_id: itemId, output_index: 0, delta })),
      { type: 'response.function_call_arguments.done', item_id: itemId, output_index: 0, arguments: argumentsJson },
    );
  } else if (decision.kind === 'tool-call') {
    events.push({ type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress' } });
  } else {
    const { deltas, intervalMilliseconds } = textDeltas(decision);
    const text = deltas.join('');
    const location = { item_id: itemId, output_index: 0, content_index: 0 };
    events.push(
      { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', ...location, part: { type: 'output_text', text: '', annotations: [] } },
      ...deltas.map((delta) => ({ type: 'response.output_text.delta', ...location, delta, logprobs: [], delayMilliseconds: intervalMilliseconds })),
      { type: 'response.output_text.done', ...location, text, logprobs: [] },
      { type: 'response.content_part.done', ...location, part: { type: 'output_text', text, annotations: [] } },
    );
  }
  events.push(
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: responseObject({ responseId, context, status: 'completed', output: [item] }) },
  );
  return events.map(({ delayMilliseconds, ...data }, index) => ({ event: data.type, data: { ...data, sequence_number: index }, delayMilliseconds }));
}

/** OpenAI Responses non-streaming reply: the completed `response` object. */
export function encodeOpenAiResponsesJson(decision: AnswerDecision, context: EncodingContext): unknown {
  return responseObject({ responseId: context.newId('resp_'), context, status: 'completed', output: [outputItem(decision, context)] });
}

const OPENAI_ERROR_TYPES: { readonly [status: number]: { readonly type: string; readonly code: string | null } } = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
};

/** The error body OpenAI's APIs (Responses and Chat Completions) send with an HTTP error status. */
export function encodeOpenAiError(status: number, message: string): ProviderErrorReply {
  const known = OPENAI_ERROR_TYPES[status] ?? (status >= 500 ? { type: 'server_error', code: null } : { type: 'invalid_request_error', code: null });
  return { status, body: { error: { message, type: known.type, param: null, code: known.code } } };
}

function outputItem(decision: AnswerDecision, context: EncodingContext): OutputItem {
  if (decision.kind === 'tool-call' && decision.tool.kind === 'local-shell') {
    return {
      id: context.newId('lsh_'),
      type: 'local_shell_call',
      call_id: context.newId('call_'),
      status: 'completed',
      action: { type: 'exec', command: decision.arguments['command'], timeout_ms: null, working_directory: null, env: {}, user: null },
    };
  }
  if (decision.kind === 'tool-call') {
    return {
      id: context.newId('fc_'),
      type: 'function_call',
      status: 'completed',
      call_id: context.newId('call_'),
      name: decision.tool.name,
      ...(decision.tool.namespace ? { namespace: decision.tool.namespace } : {}),
      arguments: JSON.stringify(decision.arguments),
    };
  }
  return {
    id: context.newId('msg_'),
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: decision.text, annotations: [] }],
  };
}

function responseObject(options: {
  readonly responseId: string;
  readonly context: EncodingContext;
  readonly status: 'in_progress' | 'completed';
  readonly output: readonly OutputItem[];
}): { [key: string]: unknown } {
  const { context } = options;
  const completed = options.status === 'completed';
  return {
    id: options.responseId,
    object: 'response',
    created_at: context.createdAtSeconds,
    status: options.status,
    error: null,
    incomplete_details: null,
    model: context.model,
    output: options.output,
    parallel_tool_calls: false,
    tool_choice: 'auto',
    usage: completed
      ? {
          input_tokens: context.usage.inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: context.usage.outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: context.usage.inputTokens + context.usage.outputTokens,
        }
      : null,
  };
}
