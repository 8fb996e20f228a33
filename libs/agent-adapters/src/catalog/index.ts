// `@switchyard/agent-adapters/catalog`: what Switchyard knows of each CLI, as data only. No
// adapter code and no SDK is reachable from here, so the gateway can serve it and the docs check it.
export * from '../family-kit/runtime-identity.types';
export * from './runtime-identity.catalog';
export * from '../family-kit/process-group.kill';
