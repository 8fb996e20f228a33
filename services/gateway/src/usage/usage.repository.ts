import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { TaskState } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { isoOf } from '../http/api-schemas';
import type { AgentUsage, IssueUsage, ModelUsage, TokenTotals } from './usage.schemas';

// Sums of bigint columns arrive as strings.
interface SummedRow {
  provider: string;
  model: string;
  input_tokens: string;
  output_tokens: string;
  cache_read_tokens: string;
  cache_write_tokens: string;
}
interface IssueTaskRow extends Omit<SummedRow, 'provider' | 'model'> {
  task_id: string;
  agent_id: string;
  status: TaskState;
  enqueued_at: Date;
  provider: string | null;
  model: string | null;
}

const SUMS = `coalesce(sum(u.input_tokens), 0) as input_tokens, coalesce(sum(u.output_tokens), 0) as output_tokens,
  coalesce(sum(u.cache_read_tokens), 0) as cache_read_tokens, coalesce(sum(u.cache_write_tokens), 0) as cache_write_tokens`;

const zero = (): TokenTotals => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });

function countsOf(row: Omit<SummedRow, 'provider' | 'model'>): TokenTotals {
  return {
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    cacheReadTokens: Number(row.cache_read_tokens),
    cacheWriteTokens: Number(row.cache_write_tokens),
  };
}

function add(into: TokenTotals, counts: TokenTotals): void {
  into.inputTokens += counts.inputTokens;
  into.outputTokens += counts.outputTokens;
  into.cacheReadTokens += counts.cacheReadTokens;
  into.cacheWriteTokens += counts.cacheWriteTokens;
}

/** Per (provider, model) in a stable order, and the grand totals. */
function summarize(entries: readonly ModelUsage[]): { byModel: ModelUsage[]; totals: TokenTotals } {
  const byKey = new Map<string, ModelUsage>();
  const totals = zero();
  for (const entry of entries) {
    const key = `${entry.provider}\u0000${entry.model}`;
    const sum = byKey.get(key) ?? { provider: entry.provider, model: entry.model, ...zero() };
    add(sum, entry);
    byKey.set(key, sum);
    add(totals, entry);
  }
  const byModel = [...byKey.values()].sort((left, right) => left.provider.localeCompare(right.provider) || left.model.localeCompare(right.model));
  return { byModel, totals };
}

/**
 * Token totals from `task_usage` (written by the transcript projector from the daemon's usage
 * messages, which every run sends whatever its outcome) joined with the queue's `agent_task_queue`
 * for the workspace, issue and agent. Every query names the workspace.
 */
@Injectable()
export class UsageRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async issueExists(workspaceId: string, issueId: string): Promise<boolean> {
    return (await this.dataSource.query<unknown[]>(`select 1 from issue where workspace_id = $1 and id = $2`, [workspaceId, issueId])).length > 0;
  }

  async agentExists(workspaceId: string, agentId: string): Promise<boolean> {
    return (await this.dataSource.query<unknown[]>(`select 1 from agent where workspace_id = $1 and id = $2`, [workspaceId, agentId])).length > 0;
  }

  async ofIssue(workspaceId: string, issueId: string): Promise<IssueUsage> {
    const rows = await this.dataSource.query<IssueTaskRow[]>(
      `select q.task_id, q.agent_id, q.status, q.enqueued_at, u.provider, u.model, ${SUMS}
         from agent_task_queue q left join task_usage u on u.task_id = q.task_id
        where q.workspace_id = $1 and q.issue_id = $2
        group by q.task_id, q.agent_id, q.status, q.enqueued_at, u.provider, u.model
        order by q.enqueued_at, q.task_id, u.provider, u.model`,
      [workspaceId, issueId],
    );
    const tasks = new Map<string, { row: IssueTaskRow; entries: ModelUsage[] }>();
    for (const row of rows) {
      const task = tasks.get(row.task_id) ?? { row, entries: [] };
      if (row.provider !== null && row.model !== null) task.entries.push({ provider: row.provider, model: row.model, ...countsOf(row) });
      tasks.set(row.task_id, task);
    }
    const perTask = [...tasks.values()].map(({ row, entries }) => ({
      taskId: row.task_id,
      agentId: row.agent_id,
      status: row.status,
      enqueuedAt: isoOf(row.enqueued_at),
      ...summarize(entries),
    }));
    return { issueId, ...summarize(perTask.flatMap((task) => task.byModel)), tasks: perTask };
  }

  async ofAgent(workspaceId: string, agentId: string, since: string | undefined): Promise<AgentUsage> {
    const rows = await this.dataSource.query<Array<SummedRow & { tasks: number }>>(
      `select u.provider, u.model, count(distinct q.task_id)::int as tasks, ${SUMS}
         from agent_task_queue q join task_usage u on u.task_id = q.task_id
        where q.workspace_id = $1 and q.agent_id = $2 and ($3::timestamptz is null or q.enqueued_at >= $3)
        group by u.provider, u.model`,
      [workspaceId, agentId, since ?? null],
    );
    const [counted] = await this.dataSource.query<Array<{ count: number }>>(
      `select count(distinct q.task_id)::int as count
         from agent_task_queue q join task_usage u on u.task_id = q.task_id
        where q.workspace_id = $1 and q.agent_id = $2 and ($3::timestamptz is null or q.enqueued_at >= $3)`,
      [workspaceId, agentId, since ?? null],
    );
    const summary = summarize(rows.map((row) => ({ provider: row.provider, model: row.model, ...countsOf(row) })));
    return { agentId, since: since === undefined ? null : isoOf(since), taskCount: counted?.count ?? 0, ...summary };
  }
}
