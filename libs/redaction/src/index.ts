export * from './secret-patterns';
export * from './redact-secrets';
export * from './clean-text';
export * from './truncate-output';
export * from './sanitize-agent-message';
export * from './secret-samples';
