import { ApiError } from '../common/api-error';
import type { McpServers } from './agent.schemas';

/** What every env and MCP header value reads as in a response: clients never get them back. */
export const MASKED_VALUE = '********';

export function maskValues(values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.keys(values).map((key) => [key, MASKED_VALUE]));
}

export function maskMcpServers(servers: McpServers): McpServers {
  return Object.fromEntries(
    Object.entries(servers).map(([name, server]) => [
      name,
      { ...server, ...(server.env ? { env: maskValues(server.env) } : {}), ...(server.headers ? { headers: maskValues(server.headers) } : {}) },
    ]),
  );
}

/**
 * A PATCH replaces the whole map, but a value sent back masked keeps what is stored, so a client
 * can edit what it read without ever holding the secrets. A masked value for a key that has no
 * stored value is refused: there is nothing to keep.
 */
export function restoreMaskedValues(options: {
  readonly next: Readonly<Record<string, string>>;
  readonly stored: Readonly<Record<string, string>>;
  readonly field: string;
}): Record<string, string> {
  return Object.fromEntries(
    Object.entries(options.next).map(([key, value]) => {
      if (value !== MASKED_VALUE) return [key, value];
      const kept = options.stored[key];
      if (kept === undefined) {
        throw new ApiError('validation_failed', `invalid body: ${options.field}.${key}: masked value for a variable that is not stored`, {
          issues: [{ path: `${options.field}.${key}`, message: 'masked value for a variable that is not stored' }],
        });
      }
      return [key, kept];
    }),
  );
}

export function restoreMaskedMcpServers(next: McpServers, stored: McpServers): McpServers {
  return Object.fromEntries(
    Object.entries(next).map(([name, server]) => {
      const before = stored[name];
      return [
        name,
        {
          ...server,
          ...(server.env ? { env: restoreMaskedValues({ next: server.env, stored: before?.env ?? {}, field: `mcpServers.${name}.env` }) } : {}),
          ...(server.headers
            ? { headers: restoreMaskedValues({ next: server.headers, stored: before?.headers ?? {}, field: `mcpServers.${name}.headers` }) }
            : {}),
        },
      ];
    }),
  );
}
