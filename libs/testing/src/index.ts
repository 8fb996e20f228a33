export * from './test-environment';
export * from './test-infrastructure';
