// Shared jest settings for every project: swc transform, workspace aliases, one test bootstrap.
const path = require('node:path');
const { swcOptions, jestModuleNameMapper, esmOnlyPackages, esmEntryModuleNameMapper } = require('./tools/build/swc-options.js');

const escape = (name) => name.replace(/[/\\^$*+?.()|[\]{}-]/g, '\\$&');

module.exports = {
  testEnvironment: 'node',
  // ES-module-only packages (and PGlite's CommonJS build, which still calls import()) cannot be
  // required by jest's VM on Node 20; swc rewrites them, like our TypeScript, to CommonJS.
  transform: { '^.+\\.(ts|js|mjs|cjs)$': ['@swc/jest', swcOptions({ rewritePaths: false })] },
  transformIgnorePatterns: [`/node_modules/(?!(${['@electric-sql', ...new Set(esmOnlyPackages())].map(escape).join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: { ...esmEntryModuleNameMapper(), ...jestModuleNameMapper() },
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  globalSetup: path.join(__dirname, 'libs/testing/src/global-setup.ts'),
  globalTeardown: path.join(__dirname, 'libs/testing/src/global-teardown.ts'),
  setupFiles: [path.join(__dirname, 'libs/testing/src/setup-reflect-metadata.ts')],
  testTimeout: 60000,
};
