import { toGeminiMcpServers } from '../acp/gemini-mcp.settings';
import type { McpArtefacts } from '../mcp/mcp-artefacts.types';
import type { McpServer, WorkDirectoryFiles } from '../mcp/mcp-server.types';

/**
 * Our own file, never the repository's `.qwen/settings.json`: server env may hold secrets, and a
 * file there could be committed by the agent. `.switchyard/` is git-ignored; replaced whole each task.
 */
export const QWEN_MCP_CONFIG_PATH = '.switchyard/mcp/qwen-mcp.json';

/** Writes `{ mcpServers }` in Qwen Code's (Gemini CLI's) form, mode 0600, even when empty, and returns its path. */
export async function writeQwenMcpConfig(options: { files: WorkDirectoryFiles; servers: readonly McpServer[] }): Promise<string> {
  const { path } = await options.files.writeIfChanged(QWEN_MCP_CONFIG_PATH, `${JSON.stringify({ mcpServers: toGeminiMcpServers(options.servers) }, null, 2)}\n`, 0o600);
  return path;
}

/**
 * `--mcp-config <file>` adds our servers to those of Qwen Code's settings; `--allowed-mcp-server-names`
 * then keeps only ours (an empty name allows none), as Claude's `--strict-mcp-config` does.
 * Last on the line: the names option is variadic.
 */
export function qwenMcpArgs(mcp: McpArtefacts | undefined): string[] {
  if (mcp?.kind !== 'qwen-config-file') return [];
  return ['--mcp-config', mcp.path, '--allowed-mcp-server-names', ...(mcp.serverNames.length > 0 ? mcp.serverNames : [''])];
}
