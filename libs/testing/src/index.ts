export * from './test-environment';
export * from './test-infrastructure';
export * from './test-database';
export * from './service-harness';
export * from './service-boot.spec-suite';
export * from './sample-agent';
export * from './mock-model';
export * from './service-child.process';
