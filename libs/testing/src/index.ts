export * from './test-environment';
export * from './test-infrastructure';
export * from './test-database';
