import { COMMAND_CATALOG, SESSION_COMMAND_CATALOG, type CommandName, type SessionCommandName } from '@switchyard/contracts';
import type { z } from 'zod';
import type { MessageCodec } from '../codec/message.codec';
import type { ConsumerDefinition } from '../provisioning/stream.definitions';

// What a handler declares beside its pattern, carried in the `extras` argument of
// `@EventPattern(pattern, extras)` / `@MessagePattern(pattern, extras)` under our own keys.
const EVENT_CONSUMER_KEY = 'switchyard.eventConsumer';
const COMMAND_RESPONDER_KEY = 'switchyard.commandResponder';

/**
 * The durable JetStream consumer behind an `@EventPattern`: the pattern is the consumer's
 * (logical) durable name, the unit JetStream acks, redelivers and dead-letters by.
 */
export interface EventConsumerOptions<T = unknown> {
  readonly consumer: ConsumerDefinition;
  /** Decodes payloads; defaults to JSON. A decode failure dead-letters the message. */
  readonly codec?: MessageCodec<T>;
  /** Handlers running at once; messages on the same subject never overlap. Default 1. */
  readonly concurrency?: number;
  /** Redelivery delay after a handler error when the consumer has no backoff list. */
  readonly retryDelayMs?: number;
}

/** Consumer options by `@EventPattern` pattern, for consumers whose settings come from configuration. */
export type EventConsumerTable = Readonly<Record<string, EventConsumerOptions>>;

/** `@EventPattern(definition.name, eventConsumer({ consumer: definition, ... }))`. */
export function eventConsumer<T>(options: EventConsumerOptions<T>): Record<string, unknown> {
  return { [EVENT_CONSUMER_KEY]: options };
}

export interface CommandResponderOptions {
  /** Instances sharing a queue group split the requests between them. */
  readonly queueGroup: string;
}

/** `@MessagePattern('task.claim', commandResponder({ queueGroup: 'queue' }))`. */
export function commandResponder(options: CommandResponderOptions): Record<string, unknown> {
  return { [COMMAND_RESPONDER_KEY]: options };
}

export function declaredEventConsumer(extras: Record<string, unknown> | undefined): EventConsumerOptions | undefined {
  return extras?.[EVENT_CONSUMER_KEY] as EventConsumerOptions | undefined;
}

export function declaredCommandResponder(extras: Record<string, unknown> | undefined): CommandResponderOptions | undefined {
  return extras?.[COMMAND_RESPONDER_KEY] as CommandResponderOptions | undefined;
}

/** The contract of a command a `@MessagePattern` may answer: its request and reply schemas. */
export interface CommandContract {
  readonly request: z.ZodType;
  readonly reply: z.ZodType;
}

/** The contracts' definition of the command named `pattern`, or undefined for an unknown name. */
export function commandContract(pattern: string): CommandContract | undefined {
  if (Object.hasOwn(COMMAND_CATALOG, pattern)) return COMMAND_CATALOG[pattern as CommandName];
  if (Object.hasOwn(SESSION_COMMAND_CATALOG, pattern)) return SESSION_COMMAND_CATALOG[pattern as SessionCommandName];
  return undefined;
}
