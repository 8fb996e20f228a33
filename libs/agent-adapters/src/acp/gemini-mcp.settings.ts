import { McpConfigError } from '../mcp/mcp-config.error';
import { asJsonObject, isJsonObject, type JsonObject, type McpServer, type WorkDirectoryFiles } from '../mcp/mcp-server.types';

/** Gemini CLI's project settings file; Qwen Code, its fork, names its own in the catalog. */
export const GEMINI_SETTINGS_FILE = '.gemini/settings.json';

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

/** The settings already there: a JSON object, or nothing. Anything else (comments included) is refused. */
function parseSettings(existing: Buffer | undefined, settingsFile: string): JsonObject {
  if (existing === undefined || existing.toString('utf8').trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(existing.toString('utf8'));
  } catch (error) {
    throw new McpConfigError('unreadable_settings', `${settingsFile} is not plain JSON; refusing to overwrite it`, { cause: error });
  }
  if (!isJsonObject(parsed)) throw new McpConfigError('unreadable_settings', `${settingsFile} is not a JSON object`);
  return parsed;
}

/**
 * Merges our servers into `mcpServers` of a Gemini-style settings file, keeping every other key
 * and every other server. A file that is not a JSON object (comments included) is left untouched
 * and reported, never overwritten.
 */
export async function mergeGeminiSettings(options: {
  files: WorkDirectoryFiles;
  servers: readonly McpServer[];
  settingsFile?: string;
}): Promise<{ path: string; changed: boolean }> {
  const settingsFile = options.settingsFile ?? GEMINI_SETTINGS_FILE;
  const settings = parseSettings(await options.files.read(settingsFile), settingsFile);
  const userServers = settings['mcpServers'] ?? {};
  if (!isJsonObject(userServers)) throw new McpConfigError('unreadable_settings', `${settingsFile} has a non-object mcpServers`);
  const merged: JsonObject = { ...settings, mcpServers: { ...userServers, ...toGeminiMcpServers(options.servers) } };
  const result = await options.files.writeIfChanged(settingsFile, `${JSON.stringify(merged, null, 2)}\n`, 0o600);
  return { path: result.path, changed: result.changed };
}
