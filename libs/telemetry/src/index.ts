export * from './sdk/telemetry.settings';
export * from './sdk/start-telemetry';
export * from './spans/span-attributes';
export * from './spans/in-span';
