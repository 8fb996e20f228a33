// Shared jest settings for every project: swc transform, workspace aliases, one test bootstrap.
const path = require('node:path');
const { swcOptions, jestModuleNameMapper } = require('./tools/build/swc-options.js');

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', swcOptions({ rewritePaths: false })] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: jestModuleNameMapper(),
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  globalSetup: path.join(__dirname, 'libs/testing/src/global-setup.ts'),
  globalTeardown: path.join(__dirname, 'libs/testing/src/global-teardown.ts'),
  setupFiles: [path.join(__dirname, 'libs/testing/src/setup-reflect-metadata.ts')],
  testTimeout: 60000,
};
