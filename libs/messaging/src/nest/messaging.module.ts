import { Module, type DynamicModule, type ModuleMetadata, type Provider } from '@nestjs/common';
import { connectMessaging, type ConnectMessagingOptions, type MessagingConnection } from '../connection/messaging.connection';
import type { ConsumerDefinition, StreamDefinition } from '../provisioning/stream.definitions';
import { provisionConsumers, provisionStreams } from '../provisioning/stream.provisioner';
import { provisionObjectStores, type ObjectStoreDefinition } from '../provisioning/object-store.provisioner';
import { provisionKeyValueBuckets, type KeyValueBucketDefinition } from '../key-value/key-value';
import type { EventConsumerTable } from '../transport/handler.declarations';
import { MessagingTransport } from '../transport/messaging.transport';
import { MessagingClient } from './messaging.client';
import { MESSAGING_CONNECTION, MESSAGING_MODULE_OPTIONS } from './messaging.injection-keys';

export interface MessagingModuleOptions extends ConnectMessagingOptions {
  /** Provisioned (created or updated, never deleted) before any `onModuleInit` runs. */
  readonly streams?: readonly StreamDefinition[];
  readonly consumers?: readonly ConsumerDefinition[];
  /** Object store buckets, created when missing (never changed or deleted). */
  readonly objectStores?: readonly ObjectStoreDefinition[];
  /** Key-value buckets, created when missing (never changed or deleted). */
  readonly keyValueBuckets?: readonly KeyValueBucketDefinition[];
  /** Consumer options of `@EventPattern` handlers whose settings come from configuration. */
  readonly eventConsumers?: EventConsumerTable;
}

export interface MessagingModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  readonly useFactory: (...dependencies: never[]) => MessagingModuleOptions | Promise<MessagingModuleOptions>;
  readonly inject?: NonNullable<Extract<Provider, { useFactory: unknown }>['inject']>;
  /** Registers the providers globally (default true): one connection per process. */
  readonly isGlobal?: boolean;
}

/**
 * Connects at boot, provisions declared streams and consumers, provides the `MessagingTransport`
 * that serves the application's `@EventPattern` / `@MessagePattern` handlers (see
 * `connectMessagingTransport`), and drains on shutdown.
 */
@Module({})
export class MessagingModule {
  static forRoot(options: MessagingModuleOptions & { isGlobal?: boolean }): DynamicModule {
    return MessagingModule.build({ provide: MESSAGING_MODULE_OPTIONS, useValue: options }, [], options.isGlobal);
  }

  static forRootAsync(options: MessagingModuleAsyncOptions): DynamicModule {
    return MessagingModule.build(
      { provide: MESSAGING_MODULE_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
      options.imports ?? [],
      options.isGlobal,
    );
  }

  private static build(optionsProvider: Provider, imports: ModuleMetadata['imports'], isGlobal = true): DynamicModule {
    return {
      module: MessagingModule,
      global: isGlobal,
      imports: imports ?? [],
      providers: [
        optionsProvider,
        {
          provide: MESSAGING_CONNECTION,
          useFactory: (options: MessagingModuleOptions) => openConnection(options),
          inject: [MESSAGING_MODULE_OPTIONS],
        },
        {
          provide: MessagingTransport,
          useFactory: (connection: MessagingConnection, options: MessagingModuleOptions) =>
            new MessagingTransport({ connection, ...(options.eventConsumers ? { eventConsumers: options.eventConsumers } : {}) }),
          inject: [MESSAGING_CONNECTION, MESSAGING_MODULE_OPTIONS],
        },
        MessagingClient,
      ],
      exports: [MESSAGING_CONNECTION, MessagingTransport, MessagingClient],
    };
  }
}

async function openConnection(options: MessagingModuleOptions): Promise<MessagingConnection> {
  const connection = await connectMessaging(options);
  try {
    await provisionStreams(connection, options.streams ?? []);
    await provisionConsumers(connection, options.consumers ?? []);
    await provisionObjectStores(connection, options.objectStores ?? []);
    await provisionKeyValueBuckets(connection, options.keyValueBuckets ?? []);
  } catch (error) {
    await connection.close();
    throw error;
  }
  return connection;
}
