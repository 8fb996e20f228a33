import { useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import type { Agent } from '../api/agents.api';
import { fetchAgentUsage, usageKeys } from '../api/usage.api';
import { seriesOfAgent, type UsageSeries } from './usage-series.model';

/**
 * The agents' tokens per bucket: one request per agent and bucket start (the API totals "since a
 * time"), answered as series once all are in, with how many are in so far.
 */
export function useUsageSeries(agents: readonly Agent[], starts: readonly Date[]): {
  readonly series: readonly UsageSeries[];
  readonly requested: number;
  readonly answered: number;
  readonly failure: unknown;
  readonly complete: boolean;
} {
  const requests = agents.flatMap((agent) => starts.map((start) => ({ agentId: agent.id, since: start.toISOString() })));
  const { answers, answered, failure } = useQueries({
    queries: requests.map((request) => ({
      queryKey: usageKeys.ofAgent(request.agentId, request.since),
      queryFn: () => fetchAgentUsage(request.agentId, request.since),
      staleTime: 60_000,
    })),
    // Combined results are shared structurally: `answers` stays the same array until an answer changes.
    combine: (results) => ({
      answers: results.map((result) => result.data),
      answered: results.filter((result) => !result.isPending).length,
      failure: results.find((result) => result.isError)?.error ?? undefined,
    }),
  });
  const complete = requests.length > 0 && answered === requests.length && failure === undefined;
  const series = useMemo<UsageSeries[]>(() => {
    if (!complete) return [];
    // The answers come in request order: each agent's bucket starts, oldest first.
    return agents.flatMap((agent, agentIndex) => {
      const sinceEachStart = answers.slice(agentIndex * starts.length, (agentIndex + 1) * starts.length).flatMap((answer) => (answer ? [answer] : []));
      return seriesOfAgent(agent.id, sinceEachStart);
    });
  }, [complete, answers, agents, starts]);
  return { series, requested: requests.length, answered, failure, complete };
}
