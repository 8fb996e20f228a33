import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { checkNatsReady, type MessagingConnection } from '../connection/messaging.connection';
import type { MessagingNamespace } from '../namespace/messaging.namespace';
import type { ConsumerDefinition, StreamDefinition } from '../provisioning/stream.definitions';
import { provisionConsumers, provisionStreams, type ProvisioningResult } from '../provisioning/stream.provisioner';
import { publish, type PublishOptions, type PublishResult } from '../publishing/jetstream.publisher';
import { request, type RequestOptions } from '../request-reply/request-reply';
import { MESSAGING_CONNECTION } from './messaging.injection-keys';

/**
 * What services inject to publish and request on the shared connection. Consuming and answering
 * are declared instead, with `@EventPattern` / `@MessagePattern` on a controller, and run by the
 * `MessagingTransport`. The connection drains at application shutdown, after the transport stopped.
 */
@Injectable()
export class MessagingClient implements OnApplicationShutdown {
  constructor(@Inject(MESSAGING_CONNECTION) readonly connection: MessagingConnection) {}

  get namespace(): MessagingNamespace {
    return this.connection.namespace;
  }

  publish<T>(options: PublishOptions<T>): Promise<PublishResult> {
    return publish(this.connection, options);
  }

  request<TRequest, TResponse = unknown>(options: RequestOptions<TRequest, TResponse>): Promise<TResponse> {
    return request(this.connection, options);
  }

  provisionStreams(definitions: readonly StreamDefinition[]): Promise<ProvisioningResult[]> {
    return provisionStreams(this.connection, definitions);
  }

  provisionConsumers(definitions: readonly ConsumerDefinition[]): Promise<ProvisioningResult[]> {
    return provisionConsumers(this.connection, definitions);
  }

  /** For readiness probes: throws `MessagingNotReadyError` when NATS or JetStream does not answer. */
  checkReady(options?: { timeoutMs?: number }): Promise<void> {
    return checkNatsReady(this.connection, options);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.connection.close();
  }
}
