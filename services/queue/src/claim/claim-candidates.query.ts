import { isRuntimeOfDaemon } from '@switchyard/contracts';
import type { EntityManager } from 'typeorm';

export interface ClaimCandidate {
  readonly taskId: string;
  readonly agentId: string;
  readonly issueId: string | null;
  readonly chatSessionId: string | null;
}

/** What is already running per agent, and which serialization slots are taken. */
export interface ActiveWork {
  readonly activeByAgent: Map<string, number>;
  readonly limitByAgent: Map<string, number>;
  readonly busyAgentIssues: Set<string>;
  readonly busyChatSessions: Set<string>;
}

export const agentIssueKey = (agentId: string, issueId: string): string => `${agentId}\u0000${issueId}`;

/**
 * Of the runtimes a claim names, those whose heartbeats last came from the claiming daemon
 * (`runtime_presence`, written from heartbeat subjects, which name their daemon): a daemon claims
 * only for runtimes it registered.
 */
export async function runtimesOfDaemon(manager: EntityManager, options: { readonly daemonId: string; readonly runtimeIds: readonly string[] }): Promise<string[]> {
  const rows = await manager.query<Array<{ runtime_id: string }>>('select runtime_id from runtime_presence where daemon_id = $1 and runtime_id = any($2::text[])', [
    options.daemonId,
    options.runtimeIds,
  ]);
  const registered = new Set(rows.map((row) => row.runtime_id));
  return options.runtimeIds.filter((runtimeId) => registered.has(runtimeId) && isRuntimeOfDaemon(runtimeId, options.daemonId));
}

/**
 * Queued (and due deferred) tasks of the runtimes, highest priority first, FIFO within a priority. Rows another
 * claimer holds are skipped, so racing claimers (and queue replicas) get disjoint sets.
 */
export async function lockClaimCandidates(
  manager: EntityManager,
  options: { readonly runtimeIds: readonly string[]; readonly now: string; readonly limit: number },
): Promise<ClaimCandidate[]> {
  const rows = await manager.query<Array<{ task_id: string; agent_id: string; issue_id: string | null; chat_session_id: string | null }>>(
    `select task_id, agent_id, issue_id, chat_session_id
       from agent_task_queue
      where runtime_id = any($1::text[])
        and (status = 'queued' or (status = 'deferred' and fire_at <= $2))
        and (expires_at is null or expires_at > $2)
      order by priority desc, enqueued_at, task_id
      limit $3
      for update skip locked`,
    [options.runtimeIds, options.now, options.limit],
  );
  return rows.map((row) => ({ taskId: row.task_id, agentId: row.agent_id, issueId: row.issue_id, chatSessionId: row.chat_session_id }));
}

/**
 * Takes the agents' claim locks (held to commit) in one global order, so concurrent claimers wait
 * for each other per agent instead of deadlocking, then reads what those agents already run.
 */
export async function lockAgentsAndReadActiveWork(manager: EntityManager, agentIds: readonly string[]): Promise<ActiveWork> {
  const sortedAgents = [...new Set(agentIds)].sort();
  // One statement for every lock, taken in the array's order: Postgres evaluates a volatile function
  // of the select list after the sort.
  await manager.query(
    'select pg_advisory_xact_lock(hashtextextended(agent.id, 11)) from unnest($1::text[]) with ordinality as agent(id, position) order by agent.position',
    [sortedAgents],
  );
  // What they run and their limits in one read (the limit rows have no status).
  const rows = await manager.query<Array<{ agent_id: string; issue_id: string | null; chat_session_id: string | null; max_concurrent_tasks: number | null }>>(
    `select agent_id, issue_id, chat_session_id, null::int as max_concurrent_tasks from agent_task_queue
      where agent_id = any($1::text[]) and status in ('dispatched', 'waiting_local_directory', 'running')
     union all
     select agent_id, null, null, max_concurrent_tasks from agent_limit where agent_id = any($1::text[])`,
    [sortedAgents],
  );
  const active = rows.filter((row) => row.max_concurrent_tasks === null);
  const work: ActiveWork = {
    activeByAgent: new Map(),
    limitByAgent: new Map(rows.flatMap((row) => (row.max_concurrent_tasks === null ? [] : [[row.agent_id, row.max_concurrent_tasks] as const]))),
    busyAgentIssues: new Set(),
    busyChatSessions: new Set(),
  };
  for (const row of active) {
    work.activeByAgent.set(row.agent_id, (work.activeByAgent.get(row.agent_id) ?? 0) + 1);
    if (row.issue_id !== null) work.busyAgentIssues.add(agentIssueKey(row.agent_id, row.issue_id));
    if (row.chat_session_id !== null) work.busyChatSessions.add(row.chat_session_id);
  }
  return work;
}
