import { api } from './http-client';

// Agents and the skills they name (services/gateway/src/workspace/agents/agent.schemas.ts,
// workspace/skills/skill.schemas.ts).

/** What every secret value reads as in an answer; sent back unchanged, it keeps the stored value. */
export const MASKED_VALUE = '********';
/** The thinking levels the adapters map per CLI (libs/agent-adapters `THINKING_LEVELS`); another value is kept but not delivered. */
export const THINKING_LEVELS = ['off', 'low', 'medium', 'high', 'max'] as const;
export const MAX_CONCURRENT_TASKS_LIMIT = 100;
/** Keys the daemon sets or withholds itself: the API refuses them (400 `blocked_environment_key`); checked here first to say so sooner. */
const BLOCKED_ENVIRONMENT_KEYS = ['PATH', 'HOME', 'TMPDIR', 'TMP', 'TEMP', 'TERM', 'DATABASE_URL', 'NODE_OPTIONS', 'BASH_ENV', 'ENV', 'CODEX_HOME'];
const BLOCKED_ENVIRONMENT_PREFIXES = ['SWITCHYARD_', 'NATS_', 'LD_', 'DYLD_'];
export const ENVIRONMENT_KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,199}$/;

export interface McpServerView {
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly url?: string;
  readonly transport?: 'http' | 'sse';
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Agent {
  readonly id: string;
  readonly name: string;
  readonly instructions: string;
  readonly runtimeId: string;
  readonly model: string | null;
  readonly thinkingLevel: string | null;
  /** Values always masked. */
  readonly env: Readonly<Record<string, string>>;
  readonly extraArgs: readonly string[];
  readonly mcpServers: Readonly<Record<string, McpServerView>>;
  readonly skills: readonly string[];
  readonly maxConcurrentTasks: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly archivedAt: string | null;
}

/** The fields a create or a change sends; a change replaces `env` and `mcpServers` whole (masked values keep the stored ones). */
export interface AgentInput {
  readonly name: string;
  readonly runtimeId: string;
  readonly instructions: string;
  readonly model: string | null;
  readonly thinkingLevel: string | null;
  readonly env: Record<string, string>;
  readonly extraArgs: string[];
  readonly mcpServers: Record<string, unknown>;
  readonly skills: string[];
  readonly maxConcurrentTasks: number;
}

export interface Skill {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly version: number;
}

export const agentKeys = {
  all: ['agents'] as const,
  list: (includeArchived: boolean) => ['agents', 'list', includeArchived] as const,
  one: (agentId: string) => ['agents', 'one', agentId] as const,
  skills: ['skills'] as const,
};

export async function listAgents(options: { readonly includeArchived: boolean }): Promise<Agent[]> {
  const answer = await api.get<{ agents: Agent[] }>(`/api/agents${options.includeArchived ? '?includeArchived=true' : ''}`);
  return answer.agents;
}

export function findAgent(agentId: string): Promise<Agent> {
  return api.get<Agent>(`/api/agents/${encodeURIComponent(agentId)}`);
}

export function createAgent(input: AgentInput): Promise<Agent> {
  // Create takes no nulls for "not set": those fields are left out.
  const { model, thinkingLevel, ...rest } = input;
  return api.post<Agent>('/api/agents', { ...rest, ...(model === null ? {} : { model }), ...(thinkingLevel === null ? {} : { thinkingLevel }) });
}

export function updateAgent(agentId: string, input: AgentInput): Promise<Agent> {
  return api.patch<Agent>(`/api/agents/${encodeURIComponent(agentId)}`, input);
}

export function archiveAgent(agentId: string): Promise<void> {
  return api.delete(`/api/agents/${encodeURIComponent(agentId)}`);
}

export async function listSkills(): Promise<Skill[]> {
  const answer = await api.get<{ skills: Skill[] }>('/api/skills');
  return answer.skills;
}

export function isBlockedEnvironmentKey(key: string): boolean {
  const upper = key.toUpperCase();
  return BLOCKED_ENVIRONMENT_KEYS.includes(upper) || BLOCKED_ENVIRONMENT_PREFIXES.some((prefix) => upper.startsWith(prefix));
}
