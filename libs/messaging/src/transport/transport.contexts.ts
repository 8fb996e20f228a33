import { BaseRpcContext } from '@nestjs/microservices';
import type { DeliveryContext } from '../consuming/jetstream.consumer';
import type { RequestContext } from '../request-reply/request-reply';

/** What an `@EventPattern` handler gets with `@Ctx()`: the JetStream delivery it is handling. */
export class JetStreamEventContext extends BaseRpcContext<[DeliveryContext, string]> {
  /** Stream, consumer, stream sequence, delivery count, headers and trace context. */
  getDelivery(): DeliveryContext {
    return this.args[0];
  }

  /** The pattern, i.e. the logical consumer name. */
  getPattern(): string {
    return this.args[1];
  }

  /** Logical subject of the message. */
  getSubject(): string {
    return this.args[0].subject;
  }

  getHeaders(): Readonly<Record<string, string>> {
    return this.args[0].headers;
  }

  /**
   * When the JetStream server stored the message. Unlike a payload's `occurredAt`, no publisher
   * chooses it, and a redelivery keeps it.
   */
  getStoredAt(): Date {
    return this.args[0].storedAt;
  }

  /** Extends the ack deadline; call it periodically during long work. */
  working(): void {
    this.args[0].working();
  }
}

/** What a `@MessagePattern` handler gets with `@Ctx()`: the command request it is answering. */
export class CommandRequestContext extends BaseRpcContext<[RequestContext, string, string | undefined]> {
  getRequest(): RequestContext {
    return this.args[0];
  }

  /** The pattern, i.e. the command name (`task.claim`). */
  getCommand(): string {
    return this.args[1];
  }

  /**
   * Who sent a daemon-sent command: the daemon id its subject ends with (`cmd.task.claim.<daemonId>`),
   * which NATS permissions vouch for, unlike anything the payload says. Undefined for a
   * service-sent command.
   */
  getSender(): string | undefined {
    return this.args[2];
  }

  /** The `Switchyard-Request-Id` header: the idempotency key of the command. */
  getRequestId(): string | undefined {
    return this.args[0].requestId;
  }

  getHeaders(): Readonly<Record<string, string>> {
    return this.args[0].headers;
  }
}
