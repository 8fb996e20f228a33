import { api } from './http-client';

// Token usage (services/gateway/src/workspace/usage/usage.schemas.ts). The API totals an agent's
// tasks enqueued since a time; there is no workspace-wide or time-bucketed aggregate.

export interface TokenTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

export interface ModelUsage extends TokenTotals {
  readonly provider: string;
  readonly model: string;
}

export interface AgentUsage {
  readonly agentId: string;
  readonly since: string | null;
  /** Tasks that reported usage. */
  readonly taskCount: number;
  readonly byModel: readonly ModelUsage[];
  readonly totals: TokenTotals;
}

export const TOKEN_FIELDS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const;
export type TokenField = (typeof TOKEN_FIELDS)[number];

export const EMPTY_TOTALS: TokenTotals = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

export const usageKeys = {
  all: ['usage'] as const,
  ofAgent: (agentId: string, since: string | null) => ['usage', 'agent', agentId, since ?? 'all'] as const,
};

/** Tokens of the agent's tasks enqueued at or after `since` (all of them when null), per provider and model. */
export function fetchAgentUsage(agentId: string, since: string | null): Promise<AgentUsage> {
  const query = since === null ? '' : `?since=${encodeURIComponent(since)}`;
  return api.get<AgentUsage>(`/api/agents/${encodeURIComponent(agentId)}/usage${query}`);
}
