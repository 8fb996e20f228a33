export * from './exec-env.error';
export * from './work-directory.preparer';
export * from './context-file.writer';
export * from './skills.installer';
export * from './mcp-config.schema';
export * from './agent-environment.builder';
export * from './exec-env.preparer';
