import { splitJsonArguments, textDeltas, type AnswerDecision, type ProviderErrorReply } from './answer.helpers';
import type { EncodingContext } from './conversation.types';
import type { ServerSentEvent } from './sse.writer';

/**
 * Anthropic Messages streaming: `message_start`, `ping`, per block `content_block_start` /
 * `content_block_delta` (`text_delta` or `input_json_delta`) / `content_block_stop`, then
 * `message_delta` (stop_reason, usage) and `message_stop`.
 */
export function encodeAnthropicMessagesStream(decision: AnswerDecision, context: EncodingContext): ServerSentEvent[] {
  const messageId = context.newId('msg_');
  const events: ServerSentEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: { id: messageId, type: 'message', role: 'assistant', model: context.model, content: [], stop_reason: null, stop_sequence: null, usage: usage(context, 1) },
      },
    },
    { event: 'ping', data: { type: 'ping' } },
  ];
  if (decision.kind === 'tool-call') {
    const input = JSON.stringify(decision.arguments);
    events.push(
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: context.newId('toolu_'), name: decision.tool.name, input: {} } } },
      ...splitJsonArguments(input).map((partialJson) => ({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: partialJson } },
      })),
    );
  } else {
    const { deltas, intervalMilliseconds } = textDeltas(decision);
    events.push(
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
      ...deltas.map((text) => ({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
        delayMilliseconds: intervalMilliseconds,
      })),
    );
  }
  events.push(
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    {
      event: 'message_delta',
      data: { type: 'message_delta', delta: { stop_reason: stopReason(decision), stop_sequence: null }, usage: usage(context, context.usage.outputTokens) },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  return events;
}

/** Anthropic Messages non-streaming reply: one `message` object. */
export function encodeAnthropicMessagesJson(decision: AnswerDecision, context: EncodingContext): unknown {
  const content =
    decision.kind === 'tool-call'
      ? [{ type: 'tool_use', id: context.newId('toolu_'), name: decision.tool.name, input: decision.arguments }]
      : [{ type: 'text', text: decision.text }];
  return {
    id: context.newId('msg_'),
    type: 'message',
    role: 'assistant',
    model: context.model,
    content,
    stop_reason: stopReason(decision),
    stop_sequence: null,
    usage: usage(context, context.usage.outputTokens),
  };
}

const ERROR_TYPES: { readonly [status: number]: string } = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export function encodeAnthropicError(status: number, message: string): ProviderErrorReply {
  const type = ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  return { status, body: { type: 'error', error: { type, message } } };
}

function stopReason(decision: AnswerDecision): string {
  return decision.kind === 'tool-call' ? 'tool_use' : 'end_turn';
}

function usage(context: EncodingContext, outputTokens: number): { [key: string]: number } {
  return { input_tokens: context.usage.inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: outputTokens };
}
