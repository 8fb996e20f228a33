import type { JsonValue } from '@switchyard/contracts';

/** One MCP server of an agent, normalized from its neutral config (the daemon validates that config). */
export interface StdioMcpServer {
  kind: 'stdio';
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface RemoteMcpServer {
  kind: 'http' | 'sse';
  name: string;
  url: string;
  headers: Record<string, string>;
}

export type McpServer = StdioMcpServer | RemoteMcpServer;

export type JsonObject = { [key: string]: JsonValue };

export const asJsonObject = (entries: Record<string, string>): JsonObject => ({ ...entries });

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The work directory's files as the caller lets the writers touch them (the daemon's guard refuses
 * symlinks and paths that leave the directory). Paths are relative to the work directory.
 */
export interface WorkDirectoryFiles {
  /** The file's bytes, or undefined when it does not exist. */
  read(relativePath: string): Promise<Buffer | undefined>;
  /** Writes the file with `mode` unless it already holds exactly `content`; returns its absolute path. */
  writeIfChanged(relativePath: string, content: string, mode: number): Promise<{ readonly path: string; readonly changed: boolean }>;
}
