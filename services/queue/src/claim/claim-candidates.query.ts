import { isRuntimeOfDaemon } from '@switchyard/contracts';
import type { EntityManager } from 'typeorm';
import { CLAIM_CANDIDATES_SQL } from '@switchyard/persistence';

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
 * Who claims, in one read: whether `sealingKey` is the curve key the daemon first claimed with
 * (the first claim pins it), and which of the runtimes the claim names last heartbeated from this
 * daemon (`runtime_presence`, written from heartbeat subjects, which name their daemon): a daemon
 * claims only for runtimes it registered, and its secrets are sealed only to its pinned key.
 */
export async function readClaimant(
  manager: EntityManager,
  options: { readonly daemonId: string; readonly sealingKey: string; readonly runtimeIds: readonly string[] },
): Promise<{ readonly sealingKeyPinned: boolean; readonly runtimeIds: string[] }> {
  // The pinned key is the row this insert adds, else the one already there (the select does not see the insert).
  const [row] = await manager.query<Array<{ public_key: string | null; runtime_ids: string[] }>>(
    `with pinned as (insert into daemon_sealing_key (daemon_id, public_key) values ($1, $2) on conflict (daemon_id) do nothing returning public_key)
     select (select public_key from pinned union all select public_key from daemon_sealing_key where daemon_id = $1 limit 1) as public_key,
            array(select runtime_id from runtime_presence where daemon_id = $1 and runtime_id = any($3::text[])) as runtime_ids`,
    [options.daemonId, options.sealingKey, options.runtimeIds],
  );
  // A concurrent first claim pinned it after this statement's snapshot: read it with a fresh one.
  const pinnedKey = row?.public_key ?? (await manager.query<Array<{ public_key: string }>>('select public_key from daemon_sealing_key where daemon_id = $1', [options.daemonId]))[0]?.public_key;
  const registered = new Set(row?.runtime_ids ?? []);
  return {
    sealingKeyPinned: pinnedKey === options.sealingKey,
    runtimeIds: options.runtimeIds.filter((runtimeId) => registered.has(runtimeId) && isRuntimeOfDaemon(runtimeId, options.daemonId)),
  };
}

/**
 * Queued (and due deferred) tasks of the runtimes, highest priority first, FIFO within a priority,
 * with their agents' claim locks taken, in one statement. Rows another claimer holds are skipped,
 * so racing claimers (and queue replicas) get disjoint sets. The agents' locks (held to commit) are
 * taken in one global order, so concurrent claimers wait for each other per agent instead of
 * deadlocking: Postgres evaluates a volatile function of the select list after the sort.
 */
export async function lockClaimCandidates(
  manager: EntityManager,
  options: { readonly runtimeIds: readonly string[]; readonly now: string; readonly limit: number },
): Promise<ClaimCandidate[]> {
  const rows = await manager.query<Array<{ task_id: string; agent_id: string; issue_id: string | null; chat_session_id: string | null }>>(
    CLAIM_CANDIDATES_SQL,
    [options.runtimeIds, options.now, options.limit],
  );
  return rows.map((row) => ({ taskId: row.task_id, agentId: row.agent_id, issueId: row.issue_id, chatSessionId: row.chat_session_id }));
}

/**
 * What the candidates' agents already run and their limits, read after `lockClaimCandidates` took
 * their locks (a statement of its own: it must see what the claimer before it committed).
 */
export async function readActiveWork(manager: EntityManager, agentIds: readonly string[]): Promise<ActiveWork> {
  const sortedAgents = [...new Set(agentIds)].sort();
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
