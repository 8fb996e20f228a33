// Type-aware lint (no-floating-promises) plus Nx module boundaries:
// services never import each other, contracts import no other lib.
import tseslint from 'typescript-eslint';
import nx from '@nx/eslint-plugin';

// Shared by every block that restricts imports: a later block's options replace an earlier one's.
const NATS_DOOR = [
  { group: ['@nats-io/*'], message: 'Only libs/messaging talks to NATS: use its typed API (publish, startConsumer, subscribeNotices, openOrderedReplay, ...).' },
  { group: ['@switchyard/messaging/testing'], message: 'Test support is for tests, the test kit and the bench.' },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'dist/**', '.switchyard/**', '.nx/**', 'coverage/**', '**/jest.config.js', 'jest.*.js', 'tools/build/**', '**/__fixtures__/**'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.recommendedTypeChecked],
    plugins: { '@nx': nx },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/unbound-method': 'off',
      'no-console': 'error',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          enforceBuildableLibDependency: false,
          depConstraints: [
            { sourceTag: 'scope:contracts', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib'] },
          ],
        },
      ],
    },
  },
  {
    // One door to NATS: only libs/messaging speaks nats.js, and only tests, the test kit and the
    // bench read streams back; services and the other libs use the typed API.
    files: ['**/*.ts'],
    ignores: ['libs/messaging/**', '**/*.spec.ts', '**/*.spec-helper.ts', 'libs/testing/**', 'tools/bench/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: NATS_DOOR }],
    },
  },
  {
    // The gateway's workspace domain never reaches into its edge (HTTP, auth, live, REST
    // controllers): the edge calls the domain, not the other way round.
    files: ['services/gateway/src/workspace/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.spec-helper.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...NATS_DOOR, { group: ['**/edge', '**/edge/**'], message: 'The workspace domain never imports the gateway edge (HTTP, auth, live, REST controllers).' }] },
      ],
    },
  },
  {
    // The raw nats.js clients under a connection are for the bench's baselines alone; tests use
    // the typed test support.
    files: ['**/*.spec.ts', '**/*.spec-helper.ts', 'libs/testing/**/*.ts'],
    ignores: ['libs/messaging/**', 'tools/bench/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@switchyard/messaging/testing', importNames: ['benchmarkNatsClients'], message: 'The raw NATS clients are for tools/bench; use collectNotices, consumerState, ...' }] },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', 'libs/testing/**/*.ts'],
    rules: { '@typescript-eslint/no-unsafe-assignment': 'off', '@typescript-eslint/no-unsafe-member-access': 'off' },
  },
);
