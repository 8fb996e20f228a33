import { z } from 'zod';
import type { McpServer } from '@switchyard/agent-adapters/wing';
import type { JsonValue } from '@switchyard/contracts';
import { ExecEnvError } from './exec-env.error';

/** Valid as a TOML bare key, a JSON key and a CLI flag value alike. */
const SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const ENVIRONMENT_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const noNul = (value: string): boolean => !value.includes('\0');

const neutralServerSchema = z
  .object({
    command: z.string().min(1).refine(noNul, 'must not contain NUL').optional(),
    args: z.array(z.string().refine(noNul, 'must not contain NUL')).optional(),
    env: z.record(z.string().regex(ENVIRONMENT_KEY_PATTERN, 'must be a POSIX variable name'), z.string().refine(noNul, 'must not contain NUL')).optional(),
    url: z.url({ protocol: /^https?$/ }).optional(),
    /** For `url` servers: streamable HTTP (default) or the older SSE transport. */
    transport: z.enum(['http', 'sse']).optional(),
    headers: z.record(z.string().min(1), z.string().refine(noNul, 'must not contain NUL')).optional(),
  })
  .strict()
  .refine((server) => (server.command === undefined) !== (server.url === undefined), 'needs exactly one of command or url');

const neutralConfigSchema = z
  .object({ servers: z.record(z.string().regex(SERVER_NAME_PATTERN, 'server names are letters, digits, _ and -'), neutralServerSchema) })
  .strict();

/**
 * Reads the agent's neutral `mcpConfig` (`{ servers: { <name>: { command, args, env?, url? } } }`)
 * into a normalized list, sorted by name; `null` means no servers. Every problem is listed at once.
 */
export function parseNeutralMcpConfig(value: JsonValue | null): McpServer[] {
  if (value === null) return [];
  const parsed = neutralConfigSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new ExecEnvError('invalid_mcp_config', `Invalid MCP config: ${problems.join('; ')}`);
  }
  return Object.entries(parsed.data.servers)
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    .map(([name, server]): McpServer =>
      server.command !== undefined
        ? { kind: 'stdio', name, command: server.command, args: server.args ?? [], env: server.env ?? {} }
        : { kind: server.transport ?? 'http', name, url: server.url ?? '', headers: server.headers ?? {} },
    );
}
