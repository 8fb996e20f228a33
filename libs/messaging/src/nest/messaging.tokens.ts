/** The raw `NatsConnection` from `@nats-io/transport-node`. */
export const NATS_CONNECTION = Symbol.for('switchyard.messaging.nats-connection');
/** The `MessagingConnection` (NATS + JetStream client/manager + namespace) the free functions take. */
export const MESSAGING_CONNECTION = Symbol.for('switchyard.messaging.connection');
/** The `MessagingModuleOptions` given to `forRoot`/`forRootAsync`. */
export const MESSAGING_MODULE_OPTIONS = Symbol.for('switchyard.messaging.module-options');
