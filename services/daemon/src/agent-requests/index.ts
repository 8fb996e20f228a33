export * from './agent-request.server';
export * from './agent-request-socket';
export * from './agent-request.refusal';
export * from './agent-task.registry';
