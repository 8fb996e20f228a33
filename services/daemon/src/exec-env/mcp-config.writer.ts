import type { JsonValue } from '@switchyard/contracts';
import { ExecEnvError } from './exec-env.error';
import type { McpServer } from './mcp-config.schema';
import { runtimeLayoutFor, type RuntimeTarget } from './runtime-target.catalog';
import { readFileInside, writeFileInsideIfChanged } from './safe-path.guard';

type JsonObject = { [key: string]: JsonValue };

/** Our own file, never the user's `.mcp.json`: replaced whole each task, so nothing stale survives. */
export const CLAUDE_MCP_CONFIG_PATH = '.switchyard/mcp/claude-mcp.json';
export const OPENCODE_CONFIG_CONTENT_VARIABLE = 'OPENCODE_CONFIG_CONTENT';

const asJsonObject = (entries: Record<string, string>): JsonObject => ({ ...entries });
const nameValueList = (entries: Record<string, string>): JsonObject[] =>
  Object.entries(entries).map(([name, value]) => ({ name, value }));

/** Claude Code `.mcp.json` shape: `{ mcpServers: { <name>: { type, command, args, env } | { type, url, headers } } }`. */
export function toClaudeMcpJson(servers: readonly McpServer[]): JsonObject {
  const mcpServers: JsonObject = {};
  for (const server of servers) {
    mcpServers[server.name] =
      server.kind === 'stdio'
        ? { type: 'stdio', command: server.command, args: server.args, env: asJsonObject(server.env) }
        : { type: server.kind, url: server.url, headers: asJsonObject(server.headers) };
  }
  return { mcpServers };
}

/** Gemini CLI (and Qwen Code) `mcpServers`: `httpUrl` is streamable HTTP, `url` is SSE. */
export function toGeminiMcpServers(servers: readonly McpServer[]): JsonObject {
  const mcpServers: JsonObject = {};
  for (const server of servers) {
    mcpServers[server.name] =
      server.kind === 'stdio'
        ? { command: server.command, args: server.args, env: asJsonObject(server.env) }
        : server.kind === 'http'
          ? { httpUrl: server.url, headers: asJsonObject(server.headers) }
          : { url: server.url, headers: asJsonObject(server.headers) };
  }
  return mcpServers;
}

/** ACP `session/new` `mcpServers`: stdio entries carry no `type`; http/sse do. Filter by the agent's `mcpCapabilities` before sending. */
export function toAcpMcpServers(servers: readonly McpServer[]): JsonObject[] {
  return servers.map((server): JsonObject =>
    server.kind === 'stdio'
      ? { name: server.name, command: server.command, args: server.args, env: nameValueList(server.env) }
      : { type: server.kind, name: server.name, url: server.url, headers: nameValueList(server.headers) },
  );
}

/** OpenCode config (`mcp` key) for the `OPENCODE_CONFIG_CONTENT` variable. */
export function toOpenCodeConfigContent(servers: readonly McpServer[]): string {
  const mcp: JsonObject = {};
  for (const server of servers) {
    mcp[server.name] =
      server.kind === 'stdio'
        ? { type: 'local', command: [server.command, ...server.args], environment: asJsonObject(server.env), enabled: true }
        : { type: 'remote', url: server.url, headers: asJsonObject(server.headers), enabled: true };
  }
  return JSON.stringify({ mcp });
}

// JSON escapes are valid TOML basic-string escapes (\" \\ \n \uXXXX).
const tomlString = (value: string): string => JSON.stringify(value);
const tomlKey = (key: string): string => (/^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key));
const tomlInlineTable = (entries: Record<string, string>): string =>
  `{ ${Object.entries(entries)
    .map(([key, value]) => `${tomlKey(key)} = ${tomlString(value)}`)
    .join(', ')} }`;

/**
 * `[mcp_servers.<name>]` sections for a throwaway `CODEX_HOME/config.toml` (the caller writes it).
 * Codex speaks stdio and streamable HTTP only, so SSE servers are returned as undelivered.
 */
export function toCodexMcpToml(servers: readonly McpServer[]): { text: string; undeliveredServerNames: string[] } {
  const sections: string[] = [];
  const undeliveredServerNames: string[] = [];
  for (const server of servers) {
    if (server.kind === 'sse') {
      undeliveredServerNames.push(server.name);
      continue;
    }
    const lines = [`[mcp_servers.${tomlKey(server.name)}]`];
    if (server.kind === 'stdio') {
      lines.push(`command = ${tomlString(server.command)}`, `args = [${server.args.map(tomlString).join(', ')}]`);
      if (Object.keys(server.env).length > 0) lines.push(`env = ${tomlInlineTable(server.env)}`);
    } else {
      lines.push(`url = ${tomlString(server.url)}`);
      if (Object.keys(server.headers).length > 0) lines.push(`http_headers = ${tomlInlineTable(server.headers)}`);
    }
    sections.push(lines.join('\n'));
  }
  return { text: sections.length === 0 ? '' : `${sections.join('\n\n')}\n`, undeliveredServerNames };
}

/** Writes the Claude config file (mode 0600: server env may hold secrets) and returns its path. */
export async function writeClaudeMcpConfig(options: { workDirectory: string; servers: readonly McpServer[] }): Promise<string> {
  const { path: filePath } = await writeFileInsideIfChanged({
    root: options.workDirectory,
    relativePath: CLAUDE_MCP_CONFIG_PATH,
    content: `${JSON.stringify(toClaudeMcpJson(options.servers), null, 2)}\n`,
    mode: 0o600,
  });
  return filePath;
}

/**
 * Merges our servers into `mcpServers` of a Gemini-style settings file, keeping every other key
 * and every other server. A file that is not a JSON object (comments included) is left untouched
 * and reported, never overwritten.
 */
export async function mergeGeminiSettings(options: {
  workDirectory: string;
  servers: readonly McpServer[];
  settingsFile?: string;
}): Promise<{ path: string; changed: boolean }> {
  const settingsFile = options.settingsFile ?? '.gemini/settings.json';
  const existing = await readFileInside({ root: options.workDirectory, relativePath: settingsFile });
  let settings: JsonObject = {};
  if (existing !== undefined && existing.toString('utf8').trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(existing.toString('utf8'));
    } catch (error) {
      throw new ExecEnvError('unreadable_settings', `${settingsFile} is not plain JSON; refusing to overwrite it`, { cause: error });
    }
    if (!isJsonObject(parsed)) throw new ExecEnvError('unreadable_settings', `${settingsFile} is not a JSON object`);
    settings = parsed;
  }
  const userServers = settings['mcpServers'] ?? {};
  if (!isJsonObject(userServers)) throw new ExecEnvError('unreadable_settings', `${settingsFile} has a non-object mcpServers`);
  const merged: JsonObject = { ...settings, mcpServers: { ...userServers, ...toGeminiMcpServers(options.servers) } };
  const result = await writeFileInsideIfChanged({
    root: options.workDirectory,
    relativePath: settingsFile,
    content: `${JSON.stringify(merged, null, 2)}\n`,
    mode: 0o600,
  });
  return { path: result.path, changed: result.changed };
}

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What the launcher needs to hand the servers to the CLI. */
export type McpArtefacts =
  | { kind: 'none' }
  | { kind: 'claude-config-file'; path: string; serverNames: string[] }
  | { kind: 'gemini-settings-file'; path: string; serverNames: string[] }
  | { kind: 'codex-config-toml'; text: string; serverNames: string[]; undeliveredServerNames: string[] }
  | { kind: 'acp-session'; mcpServers: JsonObject[]; serverNames: string[] }
  | { kind: 'opencode-config-content'; environmentVariable: typeof OPENCODE_CONFIG_CONTENT_VARIABLE; content: string; serverNames: string[] }
  /** The CLI has no MCP delivery here yet: surface as a diagnostic, do not pretend. */
  | { kind: 'unsupported'; undeliveredServerNames: string[] };

/** Renders (and for file-based CLIs writes) the servers in the target CLI's native form. */
export async function deliverMcpConfig(options: {
  workDirectory: string;
  target: RuntimeTarget;
  servers: readonly McpServer[];
}): Promise<McpArtefacts> {
  const { servers, workDirectory } = options;
  const layout = runtimeLayoutFor(options.target);
  const serverNames = servers.map((server) => server.name);
  switch (layout.mcpDelivery) {
    case 'claude-config-file':
      // Written even when empty: with --strict-mcp-config an empty file means "no servers", not "whatever is lying around".
      return { kind: 'claude-config-file', path: await writeClaudeMcpConfig({ workDirectory, servers }), serverNames };
    case 'gemini-settings-file': {
      if (servers.length === 0) return { kind: 'none' };
      const settingsFile = layout.settingsFile ?? '.gemini/settings.json';
      const { path: settingsPath } = await mergeGeminiSettings({ workDirectory, servers, settingsFile });
      return { kind: 'gemini-settings-file', path: settingsPath, serverNames };
    }
    case 'codex-config-toml': {
      const { text, undeliveredServerNames } = toCodexMcpToml(servers);
      return { kind: 'codex-config-toml', text, serverNames, undeliveredServerNames };
    }
    case 'acp-session':
      return { kind: 'acp-session', mcpServers: toAcpMcpServers(servers), serverNames };
    case 'opencode-config-content':
      if (servers.length === 0) return { kind: 'none' };
      return {
        kind: 'opencode-config-content',
        environmentVariable: OPENCODE_CONFIG_CONTENT_VARIABLE,
        content: toOpenCodeConfigContent(servers),
        serverNames,
      };
    case 'none':
      return servers.length === 0 ? { kind: 'none' } : { kind: 'unsupported', undeliveredServerNames: serverNames };
  }
}
