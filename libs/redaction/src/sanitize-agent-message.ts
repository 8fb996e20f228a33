import { NOTICE_TEXT_MAX_CHARS, type AdapterMetadata, type AgentMessage, type JsonValue } from '@switchyard/contracts';
import { REPLACEMENT_CHARACTER, cleanText } from './clean-text';
import { createRedactor } from './redact-secrets';
import { isPlaceholderValue, redactionMarker, secretKindOfKey } from './secret-patterns';
import { DEFAULT_MAX_TOOL_OUTPUT_CHARS, truncateOutput } from './truncate-output';

export interface SanitizeOptions {
  /** Values known to be secret (see `RedactOptions.exactSecrets`). */
  readonly exactSecrets?: readonly string[];
  /** Cap on a tool result's `output`; longer output becomes a preview. Default 64 KiB of characters. */
  readonly maxToolOutputChars?: number;
}

export type MessageSanitizer = (message: AgentMessage) => AgentMessage;

/**
 * Builds a sanitizer once (exact secrets compiled into one pattern) for many messages. Every string
 * of the message, including the tool input and the metadata bag at any depth, is cleaned (NUL
 * removed, lone surrogates replaced) and redacted; object keys are cleaned but kept, and a string
 * under a secret-looking key (`password`, `apiKey`, `Authorization`, ...) is replaced whole. Enum fields
 * (`type`, `status`, `level`), a notice's code (a snake_case identifier by schema) and numbers are
 * left alone; a notice's text is cut to `NOTICE_TEXT_MAX_CHARS`. The result still matches
 * `agentMessageSchema`, and sanitizing it again changes nothing.
 */
export function createMessageSanitizer(options: SanitizeOptions = {}): MessageSanitizer {
  const redact = createRedactor({ exactSecrets: options.exactSecrets ?? [] });
  const maxToolOutputChars = options.maxToolOutputChars ?? DEFAULT_MAX_TOOL_OUTPUT_CHARS;
  const text = (value: string): string => redact(cleanText(value));
  // Fields the schema wants non-empty: a value made only of NUL bytes must not become ''.
  const name = (value: string): string => nonEmpty(text(value));
  const key = (value: string): string => cleanText(value);

  const anyValue = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (Array.isArray(value)) return value.map(anyValue);
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([entryKey, entry]) => [key(entryKey), entryValue(entryKey, entry)]));
    return value;
  };
  // In structured data the key is the context: `{ "password": "x" }` holds a secret whatever x looks like.
  const entryValue = (entryKey: string, entry: unknown): unknown => {
    const kind = typeof entry === 'string' ? secretKindOfKey(entryKey) : undefined;
    if (kind === undefined) return anyValue(entry);
    const cleaned = text(entry as string);
    return isPlaceholderValue(cleaned) ? cleaned : redactionMarker(kind);
  };
  const json = (value: JsonValue): JsonValue => anyValue(value) as JsonValue;
  const metadataOf = (metadata: AdapterMetadata | undefined): { metadata?: AdapterMetadata } =>
    metadata === undefined
      ? {}
      : {
          metadata: Object.fromEntries(
            Object.entries(metadata).map(([adapterId, bag]) => [nonEmpty(key(adapterId)), anyValue(bag) as Record<string, unknown>]),
          ),
        };

  return (message) => {
    // A notice is the daemon's own message: it has no vendor metadata bag.
    const metadata = metadataOf(message.type === 'notice' ? undefined : message.metadata);
    switch (message.type) {
      case 'text':
      case 'thinking':
      case 'log':
        return { ...message, text: text(message.text), ...metadata };
      case 'tool-use':
        return { ...message, tool: name(message.tool), callId: name(message.callId), input: json(message.input), ...metadata };
      case 'tool-result': {
        const { output, truncated } = truncateOutput(text(message.output), maxToolOutputChars);
        const outputTruncated = truncated ? true : message.outputTruncated;
        return {
          ...message,
          callId: name(message.callId),
          ...(message.tool === undefined ? {} : { tool: name(message.tool) }),
          output,
          ...(outputTruncated === undefined ? {} : { outputTruncated }),
          ...metadata,
        };
      }
      case 'status':
        return {
          ...message,
          state: name(message.state),
          ...(message.sessionId === undefined ? {} : { sessionId: name(message.sessionId) }),
          ...(message.progress === undefined ? {} : { progress: text(message.progress) }),
          ...metadata,
        };
      case 'error':
        return { ...message, code: name(message.code), message: text(message.message), ...metadata };
      case 'usage':
        return {
          ...message,
          model: name(message.model),
          ...(message.provider === undefined ? {} : { provider: name(message.provider) }),
          ...metadata,
        };
      case 'notice':
        // Cut after redaction: a redaction marker can be longer than the secret it replaces.
        return { ...message, text: truncateOutput(nonEmpty(text(message.text)), NOTICE_TEXT_MAX_CHARS).output };
      default:
        return assertNever(message);
    }
  };
}

/** One message, sanitized; for many messages with the same secrets, use `createMessageSanitizer`. */
export function sanitizeAgentMessage(message: AgentMessage, options: SanitizeOptions = {}): AgentMessage {
  return createMessageSanitizer(options)(message);
}

function nonEmpty(value: string): string {
  return value === '' ? REPLACEMENT_CHARACTER : value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function assertNever(value: never): never {
  throw new TypeError(`unknown agent message type: ${JSON.stringify(value)}`);
}
