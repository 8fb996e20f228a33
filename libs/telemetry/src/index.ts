export * from './sdk/telemetry.settings';
export * from './sdk/start-telemetry';
export * from './spans/span-attributes';
export * from './spans/in-span';
export * from './metrics/metric.catalog';
export * from './metrics/service-metrics';
export * from './metrics/metrics.server';
