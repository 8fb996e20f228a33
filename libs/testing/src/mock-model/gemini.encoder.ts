import { textDeltas, type AnswerDecision, type ProviderErrorReply } from './answer.helpers';
import type { EncodingContext } from './conversation.types';
import type { ServerSentEvent } from './sse.writer';

type GenerateContentResponse = { readonly [key: string]: unknown };

/**
 * Gemini `streamGenerateContent` chunks (each a GenerateContentResponse): text parts one delta a
 * chunk, or one chunk with a `functionCall` part; the last chunk carries `finishReason` and
 * `usageMetadata`. Served as SSE (`?alt=sse`) or, without it, as one JSON array.
 */
export function encodeGeminiStreamChunks(decision: AnswerDecision, context: EncodingContext): Array<{ chunk: GenerateContentResponse; delayMilliseconds: number }> {
  const responseId = context.newId('');
  if (decision.kind === 'tool-call') return [{ chunk: response({ parts: [functionCallPart(decision)], context, responseId, last: true }), delayMilliseconds: 0 }];
  const { deltas, intervalMilliseconds } = textDeltas(decision);
  return deltas.map((text, index) => ({
    chunk: response({ parts: [{ text }], context, responseId, last: index === deltas.length - 1 }),
    delayMilliseconds: intervalMilliseconds,
  }));
}

export function encodeGeminiStream(decision: AnswerDecision, context: EncodingContext): ServerSentEvent[] {
  return encodeGeminiStreamChunks(decision, context).map(({ chunk, delayMilliseconds }) => ({ data: chunk, delayMilliseconds }));
}

/** Gemini `generateContent` reply: one GenerateContentResponse with the whole answer. */
export function encodeGeminiJson(decision: AnswerDecision, context: EncodingContext): GenerateContentResponse {
  const parts = decision.kind === 'tool-call' ? [functionCallPart(decision)] : [{ text: decision.text }];
  return response({ parts, context, responseId: context.newId(''), last: true });
}

const GEMINI_STATUSES: { readonly [status: number]: string } = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function encodeGeminiError(status: number, message: string): ProviderErrorReply {
  return { status, body: { error: { code: status, message, status: GEMINI_STATUSES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } } };
}

/** `GET /v1beta/models` in Gemini's list shape. */
export function encodeGeminiModelList(models: readonly string[]): unknown {
  return {
    models: models.map((model) => ({
      name: `models/${model}`,
      displayName: model,
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
    })),
  };
}

function functionCallPart(decision: Extract<AnswerDecision, { kind: 'tool-call' }>): { [key: string]: unknown } {
  return { functionCall: { name: decision.tool.name, args: decision.arguments } };
}

function response(options: {
  readonly parts: readonly unknown[];
  readonly context: EncodingContext;
  readonly responseId: string;
  readonly last: boolean;
}): GenerateContentResponse {
  const { context } = options;
  return {
    candidates: [{ content: { role: 'model', parts: options.parts }, index: 0, ...(options.last ? { finishReason: 'STOP' } : {}) }],
    ...(options.last
      ? {
          usageMetadata: {
            promptTokenCount: context.usage.inputTokens,
            candidatesTokenCount: context.usage.outputTokens,
            totalTokenCount: context.usage.inputTokens + context.usage.outputTokens,
          },
        }
      : {}),
    modelVersion: context.model,
    responseId: options.responseId,
  };
}
