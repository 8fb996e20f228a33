import { z } from 'zod';
import { identifierSchema } from '@switchyard/contracts';
import { timestampSchema } from '../common/api-schemas';

const ENVIRONMENT_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,199}$/;
/** Valid as a TOML bare key, a JSON key and a CLI flag value alike (the daemon's rule for MCP server names). */
const MCP_SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const SKILL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const noNul = (value: string): boolean => !value.includes('\0');
const text = (maximum: number) => z.string().max(maximum).refine(noNul, 'must not contain NUL');

const maxEntries = (maximum: number) => (record: Record<string, unknown>) => Object.keys(record).length <= maximum;

export const environmentSchema = z
  .record(z.string().regex(ENVIRONMENT_KEY_PATTERN, 'must be a POSIX variable name'), text(10_000))
  .refine(maxEntries(100), 'at most 100 variables');

/**
 * One MCP server in the neutral form the daemon writes into each CLI's native config: a command
 * (stdio) or a URL (streamable HTTP or SSE).
 */
export const mcpServerSchema = z
  .strictObject({
    command: text(1_000).min(1).optional(),
    args: z.array(text(1_000)).max(50).optional(),
    env: environmentSchema.optional(),
    url: z.url({ protocol: /^https?$/ }).optional(),
    transport: z.enum(['http', 'sse']).optional(),
    headers: z.record(z.string().min(1).max(200), text(10_000)).refine(maxEntries(50), 'at most 50 headers').optional(),
  })
  .refine((server) => (server.command === undefined) !== (server.url === undefined), 'needs exactly one of command or url');
export type McpServer = z.infer<typeof mcpServerSchema>;

export const mcpServersSchema = z
  .record(z.string().regex(MCP_SERVER_NAME_PATTERN, 'server names are letters, digits, _ and -'), mcpServerSchema)
  .refine(maxEntries(50), 'at most 50 servers');
export type McpServers = z.infer<typeof mcpServersSchema>;

const skillsSchema = z
  .array(z.string().regex(SKILL_NAME_PATTERN, 'skill names are letters, digits, . _ and -, starting with a letter or digit'))
  .max(100)
  .refine((skills) => new Set(skills).size === skills.length, 'skill names must be unique');

const ENVIRONMENT_DESCRIPTION =
  'Variables for the agent’s process; a key the daemon sets or withholds itself (PATH, HOME, TMPDIR, NODE_OPTIONS, LD_*, SWITCHYARD_*, ...) is refused with 400 `blocked_environment_key`';

const agentFields = {
  name: z.string().trim().min(1).max(100),
  instructions: text(100_000),
  runtimeId: identifierSchema.describe('A runtime of the caller’s workspace (GET /api/runtimes)'),
  model: z.string().trim().min(1).max(200).nullable(),
  thinkingLevel: z
    .string()
    .trim()
    .min(1)
    .max(50)
    .nullable()
    .describe('off, low, medium, high or max, mapped per CLI (docs/architecture/protocol-families.md, Settings); another value is kept but not delivered, and the run says so'),
  env: environmentSchema,
  extraArgs: z.array(text(1_000)).max(50).describe('Extra CLI arguments, placed after the executable (and a profile’s fixed args), before the adapter’s own'),
  mcpServers: mcpServersSchema,
  skills: skillsSchema,
  maxConcurrentTasks: z.int().min(1).max(100),
};

export const createAgentSchema = z.strictObject({
  name: agentFields.name,
  runtimeId: agentFields.runtimeId,
  instructions: agentFields.instructions.optional(),
  model: agentFields.model.optional(),
  thinkingLevel: agentFields.thinkingLevel.optional(),
  env: agentFields.env.optional().describe(ENVIRONMENT_DESCRIPTION),
  extraArgs: agentFields.extraArgs.optional(),
  mcpServers: agentFields.mcpServers.optional(),
  skills: agentFields.skills.optional(),
  maxConcurrentTasks: agentFields.maxConcurrentTasks.optional().describe('Default 1'),
});
export type CreateAgentInput = z.infer<typeof createAgentSchema>;

export const updateAgentSchema = z
  .strictObject({
    name: agentFields.name.optional(),
    runtimeId: agentFields.runtimeId.optional(),
    instructions: agentFields.instructions.optional(),
    model: agentFields.model.optional(),
    thinkingLevel: agentFields.thinkingLevel.optional(),
    env: agentFields.env.optional().describe(`${ENVIRONMENT_DESCRIPTION}. Replaces every variable; a value of \`********\` keeps that variable’s stored value`),
    extraArgs: agentFields.extraArgs.optional(),
    mcpServers: agentFields.mcpServers.optional().describe('Replaces every server; `********` in env or headers keeps the stored value'),
    skills: agentFields.skills.optional(),
    maxConcurrentTasks: agentFields.maxConcurrentTasks.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), 'name at least one field to change');
export type UpdateAgentInput = z.infer<typeof updateAgentSchema>;

export const agentListQuerySchema = z.strictObject({
  includeArchived: z.enum(['true', 'false']).optional().describe('List archived agents too (default false)'),
});

const maskedMapSchema = z.record(z.string(), z.string()).describe('Values are always masked (`********`)');

export const agentViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  instructions: z.string(),
  runtimeId: z.string(),
  model: z.string().nullable(),
  thinkingLevel: z.string().nullable(),
  env: maskedMapSchema,
  extraArgs: z.array(z.string()),
  mcpServers: z.record(
    z.string(),
    z.object({
      command: z.string().optional(),
      args: z.array(z.string()).optional(),
      env: maskedMapSchema.optional(),
      url: z.string().optional(),
      transport: z.enum(['http', 'sse']).optional(),
      headers: maskedMapSchema.optional(),
    }),
  ),
  skills: z.array(z.string()),
  maxConcurrentTasks: z.int(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  archivedAt: timestampSchema.nullable(),
});
export type AgentView = z.infer<typeof agentViewSchema>;

export const agentListSchema = z.object({ agents: z.array(agentViewSchema) });
