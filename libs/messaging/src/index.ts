export * from './nats-server/nats-server.process';
