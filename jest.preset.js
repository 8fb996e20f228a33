// Shared jest settings for every project: swc transform, workspace aliases, one test bootstrap.
const path = require('node:path');
const { swcOptions, jestModuleNameMapper } = require('./tools/build/swc-options.js');

module.exports = {
  testEnvironment: 'node',
  // PGlite's CommonJS build still calls import(), which jest's VM rejects on Node 20; swc rewrites
  // it (and our TypeScript) to require().
  transform: { '^.+\\.(ts|js|mjs|cjs)$': ['@swc/jest', swcOptions({ rewritePaths: false })] },
  transformIgnorePatterns: ['/node_modules/(?!(@electric-sql)/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: jestModuleNameMapper(),
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  globalSetup: path.join(__dirname, 'libs/testing/src/global-setup.ts'),
  globalTeardown: path.join(__dirname, 'libs/testing/src/global-teardown.ts'),
  setupFiles: [path.join(__dirname, 'libs/testing/src/setup-reflect-metadata.ts')],
  testTimeout: 60000,
};
