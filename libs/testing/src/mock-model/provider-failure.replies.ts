import type { ProviderErrorReply } from './answer.helpers';
import { encodeAnthropicError } from './anthropic-messages.encoder';
import type { ModelApi, TurnDecision } from './conversation.types';
import { encodeGeminiError } from './gemini.encoder';
import { encodeOpenAiChatError } from './openai-chat.encoder';
import { encodeOpenAiError } from './openai-responses.encoder';

type ErrorDecision = Extract<TurnDecision, { kind: 'error' }>;

/** An error reply and the headers that go with it (`retry-after` on a 429). */
export interface ProviderFailureReply extends ProviderErrorReply {
  readonly headers: { readonly [name: string]: string };
}

/** Seconds a 429 asks the client to wait, as every provider sends it. */
export const RATE_LIMIT_RETRY_AFTER_SECONDS = 1;

type Wording = { readonly [status: number]: unknown };

/**
 * Bodies in each provider's own words (taken from their public error docs and SDK tests), so the
 * CLIs print what they print in production and the failure classifiers learn real text.
 */
const ANTHROPIC: Wording = {
  400: { type: 'error', error: { type: 'invalid_request_error', message: 'messages.1.content.0: unexpected `tool_use_id` found in `tool_result` blocks. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.' } },
  401: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
  429: { type: 'error', error: { type: 'rate_limit_error', message: 'This request would exceed the rate limit for your organization of 50,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.' } },
  500: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } },
};
const ANTHROPIC_CONTEXT_OVERFLOW = { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' } };

const OPENAI: Wording = {
  400: { error: { message: "Invalid 'messages[2].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.", type: 'invalid_request_error', param: 'messages[2].tool_calls', code: 'empty_array' } },
  401: { error: { message: 'Incorrect API key provided: sk-mock***********. You can find your API key at https://platform.openai.com/account/api-keys.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
  429: { error: { message: 'Rate limit reached for mock-model in organization org-mock on tokens per min (TPM): Limit 30000, Used 30000, Requested 1200. Please try again in 1s. Visit https://platform.openai.com/account/rate-limits to learn more.', type: 'tokens', param: null, code: 'rate_limit_exceeded' } },
  500: { error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null } },
};
const OPENAI_CHAT_CONTEXT_OVERFLOW = { error: { message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130542 tokens. Please reduce the length of the messages.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } };
const OPENAI_RESPONSES_CONTEXT_OVERFLOW = { error: { message: 'Your input exceeds the context window of this model. Please adjust your input and try again.', type: 'invalid_request_error', param: 'input', code: 'context_length_exceeded' } };

const GEMINI: Wording = {
  400: { error: { code: 400, message: 'Request contains an invalid argument.', status: 'INVALID_ARGUMENT' } },
  401: { error: { code: 401, message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', status: 'UNAUTHENTICATED' } },
  429: {
    error: {
      code: 429,
      message: 'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. Please retry in 1s.',
      status: 'RESOURCE_EXHAUSTED',
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${RATE_LIMIT_RETRY_AFTER_SECONDS}s` }],
    },
  },
  500: { error: { code: 500, message: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting', status: 'INTERNAL' } },
};
const GEMINI_CONTEXT_OVERFLOW = { error: { code: 400, message: 'The input token count (1250000) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' } };

const WORDING: Record<ModelApi, { readonly statuses: Wording; readonly contextOverflow: unknown; readonly fallback: (status: number, message: string) => ProviderErrorReply }> = {
  'anthropic-messages': { statuses: ANTHROPIC, contextOverflow: ANTHROPIC_CONTEXT_OVERFLOW, fallback: encodeAnthropicError },
  'openai-chat': { statuses: OPENAI, contextOverflow: OPENAI_CHAT_CONTEXT_OVERFLOW, fallback: encodeOpenAiChatError },
  'openai-responses': { statuses: OPENAI, contextOverflow: OPENAI_RESPONSES_CONTEXT_OVERFLOW, fallback: encodeOpenAiError },
  gemini: { statuses: GEMINI, contextOverflow: GEMINI_CONTEXT_OVERFLOW, fallback: encodeGeminiError },
};

/** The reply for a scripted failure in the API's shape; statuses without real wording get the generic body. */
export function providerFailureReply(api: ModelApi, decision: ErrorDecision): ProviderFailureReply {
  const wording = WORDING[api];
  // Both SDKs (Anthropic, OpenAI) honour this header; without it they retry 5xx and 429 on their own.
  const headers: { [name: string]: string } = { 'x-should-retry': 'false' };
  if (decision.status === 429) headers['retry-after'] = String(RATE_LIMIT_RETRY_AFTER_SECONDS);
  if (decision.failure === 'context-overflow') return { status: decision.status, body: wording.contextOverflow, headers };
  const body = wording.statuses[decision.status];
  if (body !== undefined) return { status: decision.status, body, headers };
  return { ...wording.fallback(decision.status, decision.message), headers };
}
