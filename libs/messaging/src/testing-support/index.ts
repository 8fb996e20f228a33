// Test support: reading a whole stream back, removing a namespace's streams. Imported as
// `@switchyard/messaging/testing` by tests, the test kit and tools, never by a service.
export * from './namespace-cleanup';
export * from './read-stream';
