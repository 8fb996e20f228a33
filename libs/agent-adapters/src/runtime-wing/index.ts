// `@switchyard/agent-adapters/wing`: the daemon's one door to what each CLI needs. It asks here and
// knows no vendor. Light at require: the catalog (data), the MCP shapes and the session-store
// probe; a family's adapters (and the ACP SDK) are required only when a runtime of it is driven.
export * from '../catalog/index';
export type * from '../backend/backend.types';
export type { McpServer, RemoteMcpServer, StdioMcpServer, WorkDirectoryFiles } from '../mcp/mcp-server.types';
export * from '../mcp/mcp-config.error';
export type { LaunchAgent, LaunchTarget } from '../family-kit/family-wing.types';
export * from './runtime-wing';
export * from './mcp-config.writer';
export * from './mcp-delivery.warning';
export { CLAUDE_MCP_CONFIG_PATH } from '../claude-stream-json/claude-mcp.config';
export * from './session-store.probe';
export type { ContainmentMechanism, ContainmentSweep, RunContainment, RunContainments } from '../runner/run-containment';
export { RUN_MARKER_VARIABLE } from '../runner/run-containment';
export * from '../runner/run-containments.factory';
