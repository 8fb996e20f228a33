import { toAcpMcpServers } from '../acp/acp-mcp.servers';
import { GEMINI_SETTINGS_FILE, mergeGeminiSettings } from '../acp/gemini-mcp.settings';
import { runtimeLayoutFor } from '../catalog/runtime-identity.catalog';
import type { RuntimeTarget } from '../family-kit/runtime-identity.types';
import { writeClaudeMcpConfig } from '../claude-stream-json/claude-mcp.config';
import { toCodexMcpServers } from '../codex-app-server/codex-mcp.config';
import { writeCopilotMcpConfig } from '../copilot-jsonl/copilot-mcp.config';
import { writeQwenMcpConfig } from '../claude-stream-json/qwen-mcp.config';
import type { McpArtefacts } from '../mcp/mcp-artefacts.types';
import type { McpServer, WorkDirectoryFiles } from '../mcp/mcp-server.types';
import { OPENCODE_CONFIG_CONTENT_VARIABLE, toOpenCodeConfigContent } from '../opencode-ndjson/opencode-mcp.config';

export type { McpArtefacts } from '../mcp/mcp-artefacts.types';

/**
 * Renders (and for file-based CLIs writes) the servers in the target CLI's native form, as its
 * catalog entry says it takes them; each form lives in the folder of the family that defines it.
 */
export async function writeMcpConfig(options: { target: RuntimeTarget; servers: readonly McpServer[]; files: WorkDirectoryFiles }): Promise<McpArtefacts> {
  const { servers, files } = options;
  const layout = runtimeLayoutFor(options.target);
  const serverNames = servers.map((server) => server.name);
  switch (layout.mcpDelivery) {
    case 'claude-config-file':
      // Written even when empty: with --strict-mcp-config an empty file means "no servers", not "whatever is lying around".
      return { kind: 'claude-config-file', path: await writeClaudeMcpConfig({ files, servers }), serverNames };
    case 'qwen-config-file':
      // Written even when empty: with only its servers allowed, an empty file means "no servers".
      return { kind: 'qwen-config-file', path: await writeQwenMcpConfig({ files, servers }), serverNames };
    case 'copilot-config-file':
      if (servers.length === 0) return { kind: 'none' };
      return { kind: 'copilot-config-file', path: await writeCopilotMcpConfig({ files, servers }), serverNames };
    case 'gemini-settings-file': {
      if (servers.length === 0) return { kind: 'none' };
      const { path } = await mergeGeminiSettings({ files, servers, settingsFile: layout.settingsFile ?? GEMINI_SETTINGS_FILE });
      return { kind: 'gemini-settings-file', path, serverNames };
    }
    case 'codex-thread-config': {
      const { mcpServers, undeliveredServerNames } = toCodexMcpServers(servers);
      return { kind: 'codex-thread-config', mcpServers, serverNames: serverNames.filter((name) => !undeliveredServerNames.includes(name)), undeliveredServerNames };
    }
    case 'acp-session':
      return { kind: 'acp-session', mcpServers: toAcpMcpServers(servers), serverNames };
    case 'opencode-config-content':
      if (servers.length === 0) return { kind: 'none' };
      return { kind: 'opencode-config-content', environmentVariable: OPENCODE_CONFIG_CONTENT_VARIABLE, content: toOpenCodeConfigContent(servers), serverNames };
    case 'none':
      return servers.length === 0 ? { kind: 'none' } : { kind: 'unsupported', undeliveredServerNames: serverNames };
  }
}
