import type { EntityManager } from 'typeorm';
import type { TaskSourceKind, TaskTokenIntrospectResult } from '@switchyard/contracts';
import { LIVE_ATTEMPT_STATES } from '../domain/task.state';

interface TokenRow {
  task_id: string;
  attempt: number;
  expires_at: Date;
  revoked_at: Date | null;
  workspace_id: string;
  agent_id: string;
  source_kind: TaskSourceKind;
  issue_id: string | null;
  chat_session_id: string | null;
  status: string;
  current_attempt: number;
}

/** The states in which an attempt is live: claimed and preparing (or waiting for its local directory), or running. */
const LIVE_STATES: ReadonlySet<string> = new Set(LIVE_ATTEMPT_STATES);

/**
 * Who the token with this hash speaks for: its attempt, only while that attempt is the task's
 * current one and live, the token neither revoked nor expired. The first failing check names the
 * reason, so a token revoked at the task's end says `revoked`, not `attempt_ended`.
 */
export async function introspectTaskToken(manager: EntityManager, options: { readonly tokenHash: string; readonly now: Date }): Promise<TaskTokenIntrospectResult> {
  const [row] = await manager.query<TokenRow[]>(
    `select t.task_id, t.attempt, t.expires_at, t.revoked_at,
            q.workspace_id, q.agent_id, q.source_kind, q.issue_id, q.chat_session_id, q.status, q.attempt as current_attempt
       from task_token t join agent_task_queue q on q.task_id = t.task_id
      where t.token_hash = $1`,
    [options.tokenHash],
  );
  if (!row) return { active: false, reason: 'unknown' };
  if (row.revoked_at !== null) return { active: false, reason: 'revoked' };
  if (row.expires_at.getTime() <= options.now.getTime()) return { active: false, reason: 'expired' };
  if (row.current_attempt !== row.attempt || !LIVE_STATES.has(row.status)) return { active: false, reason: 'attempt_ended' };
  return {
    active: true,
    taskId: row.task_id,
    attempt: row.attempt,
    workspaceId: row.workspace_id,
    agentId: row.agent_id,
    sourceKind: row.source_kind,
    issueId: row.issue_id,
    chatSessionId: row.chat_session_id,
    expiresAt: row.expires_at.toISOString(),
  };
}
