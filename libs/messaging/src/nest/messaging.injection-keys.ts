/** The `MessagingConnection` (the NATS connection behind a namespace) the free functions take. */
export const MESSAGING_CONNECTION = Symbol.for('switchyard.messaging.connection');
/** The `MessagingModuleOptions` given to `forRoot`/`forRootAsync`. */
export const MESSAGING_MODULE_OPTIONS = Symbol.for('switchyard.messaging.module-options');
