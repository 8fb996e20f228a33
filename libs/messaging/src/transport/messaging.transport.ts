import type { BeforeApplicationShutdown } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { Server, type BaseRpcContext, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import { isDaemonCommand, subjects, type AnyCommandName } from '@switchyard/contracts';
import type { MessagingConnection } from '../connection/messaging.connection';
import { startConsumer, type RunningConsumer } from '../consuming/jetstream.consumer';
import { InvalidDefinitionError, describeCause } from '../errors/messaging.errors';
import { ReplyError, type ReplyEnvelope } from '../request-reply/reply.envelope';
import { serveRequests, type RequestServer } from '../request-reply/request-reply';
import {
  commandContract,
  declaredCommandResponder,
  declaredEventConsumer,
  type CommandContract,
  type CommandResponderOptions,
  type EventConsumerOptions,
  type EventConsumerTable,
} from './handler.declarations';
import { CommandRequestContext, JetStreamEventContext } from './transport.contexts';
import { taskAttributesOf } from '../tracing/messaging.spans';

/** The transport id handlers may name in `@EventPattern(pattern, MESSAGING_TRANSPORT_ID, extras)`. */
export const MESSAGING_TRANSPORT_ID = Symbol.for('switchyard.messaging.transport');

export interface MessagingTransportOptions {
  readonly connection: MessagingConnection;
  /** Consumer options by pattern, for `@EventPattern`s without `eventConsumer(...)` extras. */
  readonly eventConsumers?: EventConsumerTable;
}

type PlannedHandler =
  | { readonly kind: 'event'; readonly pattern: string; readonly handler: MessageHandler; readonly options: EventConsumerOptions }
  | { readonly kind: 'command'; readonly pattern: string; readonly handler: MessageHandler; readonly contract: CommandContract; readonly responder: CommandResponderOptions };

/**
 * A NestJS custom transport strategy over our messaging layer. `@EventPattern(consumerName)`
 * methods become durable JetStream consumers (`startConsumer`: ack after the handler resolves,
 * nak with backoff, dead letters); `@MessagePattern(commandName)` methods answer the contracts'
 * commands over core NATS request/reply (`serveRequests`: request validation, coded error
 * replies), their replies checked against the command's reply schema before they are sent. A
 * daemon-sent command is served on `cmd.<name>.*` and its handler gets the sender in the context.
 * Every declaration is checked at `listen`, so a wrong one fails the boot, not a message.
 */
export class MessagingTransport extends Server<Record<string, never>, 'listening' | 'closed'> implements CustomTransportStrategy, BeforeApplicationShutdown {
  private readonly running: Array<RunningConsumer | RequestServer> = [];
  private starting: Promise<void> | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: MessagingTransportOptions) {
    super();
    this.transportId = MESSAGING_TRANSPORT_ID;
  }

  listen(callback: (error?: unknown) => void): void {
    this.starting = this.start();
    this.starting.then(
      () => callback(),
      (error: unknown) => callback(error),
    );
  }

  /** Stops the consumers (handlers in flight finish, unstarted messages go back) and the responders (drained). */
  close(): Promise<void> {
    this.closing ??= this.stopAll();
    return this.closing;
  }

  /** Before the connection drains and the database closes, whoever shuts the application down. */
  beforeApplicationShutdown(): Promise<void> {
    return this.close();
  }

  on(): never {
    throw new Error('the messaging transport has no events to listen to; use connectionStatus(connection)');
  }

  unwrap<T>(): T {
    throw new Error('the messaging transport does not expose its NATS clients');
  }

  private async start(): Promise<void> {
    if (this.closing) throw new Error('the messaging transport was closed before it listened');
    const planned = this.plan();
    for (const entry of planned) {
      this.running.push(entry.kind === 'command' ? this.serveCommand(entry) : await this.startEventConsumer(entry));
    }
    this._status$.next('listening');
    this.options.connection.logger.info(
      { commands: planned.filter((entry) => entry.kind === 'command').map((entry) => entry.pattern), consumers: planned.filter((entry) => entry.kind === 'event').map((entry) => entry.pattern) },
      'messaging transport listening',
    );
  }

  private async stopAll(): Promise<void> {
    // A start in progress finishes first, so nothing it starts is left running.
    await this.starting?.catch(() => undefined);
    const results = await Promise.allSettled(this.running.splice(0).map((running) => running.stop()));
    for (const result of results) {
      if (result.status === 'rejected') this.options.connection.logger.error({ error: describeCause(result.reason) }, 'stopping a message handler failed');
    }
    this._status$.next('closed');
  }

  /** Every registered handler with what it declared; all problems at once, or none. */
  private plan(): PlannedHandler[] {
    const table = this.options.eventConsumers ?? {};
    const problems: string[] = [];
    const planned: PlannedHandler[] = [];
    for (const [pattern, handler] of this.messageHandlers) {
      const entry = handler.isEventHandler ? planEvent({ pattern, handler, table, problems }) : planCommand({ pattern, handler, problems });
      if (entry) planned.push(entry);
    }
    for (const pattern of Object.keys(table)) {
      if (!this.messageHandlers.get(pattern)?.isEventHandler) problems.push(`eventConsumers names '${pattern}', which no @EventPattern handles`);
    }
    if (problems.length > 0) throw new InvalidDefinitionError(`message handlers: ${problems.join('; ')}`);
    return planned;
  }

  private startEventConsumer(entry: Extract<PlannedHandler, { kind: 'event' }>): Promise<RunningConsumer> {
    const { consumer, codec, concurrency, retryDelayMs } = entry.options;
    return startConsumer(this.options.connection, {
      consumer,
      ...(codec ? { codec } : {}),
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(retryDelayMs === undefined ? {} : { retryDelayMs }),
      handler: async (message, delivery) => {
        const context = new JetStreamEventContext([delivery, entry.pattern]);
        await this.invoke({ handler: entry.handler, data: message, context });
      },
    });
  }

  /** A daemon-sent command is served for every sender (`cmd.<name>.*`); the handler learns which from the context. */
  private serveCommand(entry: Extract<PlannedHandler, { kind: 'command' }>): RequestServer {
    const name = entry.pattern as AnyCommandName;
    const sentByDaemon = isDaemonCommand(name);
    return serveRequests(this.options.connection, {
      subject: subjects.commandFilter(name),
      queueGroup: entry.responder.queueGroup,
      requestSchema: entry.contract.request,
      handlerReturns: 'reply',
      handler: async (request, requestContext) => {
        const sender = sentByDaemon ? subjects.publisherOf(requestContext.subject) : undefined;
        const context = new CommandRequestContext([requestContext, entry.pattern, sender]);
        const reply = this.checkedReply(entry, await this.invoke({ handler: entry.handler, data: request, context }));
        // The task the command names, or the one it created (`task.enqueue` answers its id).
        trace.getActiveSpan()?.setAttributes({ ...taskAttributesOf(reply.ok ? reply.result : undefined), ...taskAttributesOf((request as { payload?: unknown }).payload) });
        return reply;
      },
    });
  }

  /** A reply outside the command's contract is never sent: it is a bug, and retrying will not fix it. */
  private checkedReply(entry: Extract<PlannedHandler, { kind: 'command' }>, reply: unknown): ReplyEnvelope<unknown> {
    const checked = entry.contract.reply.safeParse(reply);
    if (checked.success) return reply as ReplyEnvelope<unknown>;
    this.options.connection.logger.error({ command: entry.pattern, error: checked.error.message }, 'handler reply outside its contract');
    throw new ReplyError('internal', `the reply to ${entry.pattern} is outside its contract`, { retryable: false, cause: checked.error });
  }

  /** Runs a Nest handler (through its guards, pipes, interceptors and filters) to its last value. */
  private async invoke(options: { readonly handler: MessageHandler; readonly data: unknown; readonly context: BaseRpcContext }): Promise<unknown> {
    const transportId = this.transportId ?? MESSAGING_TRANSPORT_ID;
    try {
      // The error travels as it was thrown: what it carries (`isRetryable`, a reply code) decides.
      const settled = await new Promise<{ readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown }>((resolve) => {
        this.onProcessingStartHook(transportId, options.context, async () => {
          try {
            const result: unknown = await options.handler(options.data, options.context);
            resolve({ ok: true, value: isObservable(result) ? await lastValueFrom(result, { defaultValue: undefined }) : result });
          } catch (error) {
            resolve({ ok: false, error });
          }
        });
      });
      if (!settled.ok) throw settled.error;
      return settled.value;
    } finally {
      this.onProcessingEndHook?.(transportId, options.context);
    }
  }
}

function planEvent(options: { pattern: string; handler: MessageHandler; table: EventConsumerTable; problems: string[] }): PlannedHandler | undefined {
  const { pattern, handler, table, problems } = options;
  const declared = declaredEventConsumer(handler.extras);
  const consumer = declared ?? table[pattern];
  if (declared && table[pattern]) problems.push(`@EventPattern('${pattern}') declares its consumer twice (extras and eventConsumers)`);
  else if (!consumer) problems.push(`@EventPattern('${pattern}') declares no consumer: give it eventConsumer(...) extras or an eventConsumers entry`);
  else if (consumer.consumer.name !== pattern) problems.push(`@EventPattern('${pattern}') declares consumer '${consumer.consumer.name}': the pattern is the consumer's name`);
  else if (handler.next) problems.push(`@EventPattern('${pattern}') has more than one handler: one consumer, one handler`);
  else return { kind: 'event', pattern, handler, options: consumer };
  return undefined;
}

function planCommand(options: { pattern: string; handler: MessageHandler; problems: string[] }): PlannedHandler | undefined {
  const { pattern, handler, problems } = options;
  const contract = commandContract(pattern);
  const responder = declaredCommandResponder(handler.extras);
  if (!contract) problems.push(`@MessagePattern('${pattern}') names no command of the contracts`);
  else if (!responder) problems.push(`@MessagePattern('${pattern}') declares no queue group: give it commandResponder({ queueGroup }) extras`);
  else return { kind: 'command', pattern, handler, contract, responder };
  return undefined;
}
