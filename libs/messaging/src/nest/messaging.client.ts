import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationShutdown } from '@nestjs/common';
import { checkNatsReady, type MessagingConnection } from '../connection/messaging.connection';
import { startConsumer, type RunningConsumer, type StartConsumerOptions } from '../consuming/jetstream.consumer';
import { describeCause } from '../errors/messaging.errors';
import type { MessagingNamespace } from '../namespace/messaging.namespace';
import type { ConsumerDefinition, StreamDefinition } from '../provisioning/stream.definitions';
import { provisionConsumers, provisionStreams, type ProvisioningResult } from '../provisioning/stream.provisioner';
import { publish, type PublishOptions, type PublishResult } from '../publishing/jetstream.publisher';
import { request, serveRequests, type RequestOptions, type RequestServer, type ServeRequestsOptions } from '../request-reply/request-reply';
import { MESSAGING_CONNECTION } from './messaging.tokens';

/**
 * What services inject: publish, request, consumers and responders on the shared connection.
 * Consumers and responders started here are stopped (in-flight work finished) before the
 * connection drains at application shutdown.
 */
@Injectable()
export class MessagingClient implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly consumers = new Set<RunningConsumer>();
  private readonly servers = new Set<RequestServer>();

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

  async startConsumer<T>(options: StartConsumerOptions<T>): Promise<RunningConsumer> {
    const running = await startConsumer(this.connection, options);
    this.consumers.add(running);
    return {
      stream: running.stream,
      consumer: running.consumer,
      stop: async () => {
        this.consumers.delete(running);
        await running.stop();
      },
    };
  }

  serveRequests<TRequest, TResponse>(options: ServeRequestsOptions<TRequest, TResponse>): RequestServer {
    const server = serveRequests(this.connection, options);
    this.servers.add(server);
    return {
      subject: server.subject,
      stop: async () => {
        this.servers.delete(server);
        await server.stop();
      },
    };
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

  async beforeApplicationShutdown(): Promise<void> {
    const stopping = [...this.consumers, ...this.servers].map((running) => running.stop());
    this.consumers.clear();
    this.servers.clear();
    const results = await Promise.allSettled(stopping);
    for (const result of results) {
      if (result.status === 'rejected') {
        this.connection.logger.error({ error: describeCause(result.reason) }, 'stopping a consumer failed');
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.connection.close();
  }
}
