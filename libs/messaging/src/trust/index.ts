export * from './bus-authority';
export * from './account-claims';
export * from './bus-identities';
export * from './user-credentials';
export * from './nats-server.config';
export * from './authenticated-nats-server';
export * from './account-claims.publisher';
export * from './bus-trust.error';
