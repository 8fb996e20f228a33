// Test support: reading streams and consumers back, watching core NATS, cutting a connection.
// Imported as `@switchyard/messaging/testing` by tests, the test kit and tools/bench, never by a
// service (lint refuses it there).
export * from './namespace-cleanup';
export * from './read-stream';
export * from './collect-notices';
export * from './consumer-state';
export * from './benchmark-clients';
export type { NatsClients } from '../connection/nats-clients';
export * from './permission-violations';
export * from './object-store-attacks';
export * from './key-value-attacks';
export * from './stream-cluster';
