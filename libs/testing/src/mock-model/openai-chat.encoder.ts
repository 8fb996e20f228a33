import { splitJsonArguments, textDeltas, type AnswerDecision, type ProviderErrorReply } from './answer.helpers';
import type { EncodingContext } from './conversation.types';
import { encodeOpenAiError } from './openai-responses.encoder';
import type { ServerSentEvent } from './sse.writer';

/**
 * OpenAI Chat Completions streaming: `chat.completion.chunk`s with `delta.content` or
 * `delta.tool_calls` (id and name first, then argument pieces), a final chunk with
 * `finish_reason` and `usage`, then `data: [DONE]`.
 */
export function encodeOpenAiChatStream(decision: AnswerDecision, context: EncodingContext): ServerSentEvent[] {
  const completionId = context.newId('chatcmpl-');
  const chunk = (delta: unknown, finishReason: string | null = null, extra: { [key: string]: unknown } = {}): { [key: string]: unknown } => ({
    id: completionId,
    object: 'chat.completion.chunk',
    created: context.createdAtSeconds,
    model: context.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...extra,
  });
  const events: ServerSentEvent[] = [];
  if (decision.kind === 'tool-call') {
    const argumentsJson = JSON.stringify(decision.arguments);
    events.push({
      data: chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: context.newId('call_'), type: 'function', function: { name: decision.tool.name, arguments: '' } }] }),
    });
    for (const piece of splitJsonArguments(argumentsJson)) events.push({ data: chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }) });
  } else {
    const { deltas, intervalMilliseconds } = textDeltas(decision);
    events.push({ data: chunk({ role: 'assistant', content: '' }) });
    for (const content of deltas) events.push({ data: chunk({ content }), delayMilliseconds: intervalMilliseconds });
  }
  events.push({ data: chunk({}, finishReason(decision), { usage: usage(context) }) }, { data: '[DONE]' });
  return events;
}

/** OpenAI Chat Completions non-streaming reply: one `chat.completion`. */
export function encodeOpenAiChatJson(decision: AnswerDecision, context: EncodingContext): unknown {
  const message =
    decision.kind === 'tool-call'
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: context.newId('call_'), type: 'function', function: { name: decision.tool.name, arguments: JSON.stringify(decision.arguments) } }],
        }
      : { role: 'assistant', content: decision.text };
  return {
    id: context.newId('chatcmpl-'),
    object: 'chat.completion',
    created: context.createdAtSeconds,
    model: context.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(decision) }],
    usage: usage(context),
  };
}

/** `GET /v1/models` in OpenAI's list shape. */
export function encodeOpenAiModelList(models: readonly string[], createdAtSeconds: number): unknown {
  return { object: 'list', data: models.map((id) => ({ id, object: 'model', created: createdAtSeconds, owned_by: 'switchyard-mock' })) };
}

export function encodeOpenAiChatError(status: number, message: string): ProviderErrorReply {
  return encodeOpenAiError(status, message);
}

function finishReason(decision: AnswerDecision): string {
  return decision.kind === 'tool-call' ? 'tool_calls' : 'stop';
}

function usage(context: EncodingContext): { [key: string]: number } {
  return {
    prompt_tokens: context.usage.inputTokens,
    completion_tokens: context.usage.outputTokens,
    total_tokens: context.usage.inputTokens + context.usage.outputTokens,
  };
}
