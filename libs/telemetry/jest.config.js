const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'telemetry',
  rootDir: __dirname,
  // The OTLP exporter loads `http` with import() at its first export, which jest's VM cannot run in
  // a CommonJS package: swc rewrites that package too, as it does the ES-module-only ones.
  transformIgnorePatterns: preset.transformIgnorePatterns.map((pattern) => pattern.replace('(?!(', '(?!(@opentelemetry/otlp-exporter-base|')),
};
