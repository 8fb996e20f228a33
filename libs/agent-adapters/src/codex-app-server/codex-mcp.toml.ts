import type { McpServer } from '../mcp/mcp-server.types';

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
