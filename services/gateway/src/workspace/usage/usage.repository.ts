import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE, queuedTaskIdsOfAgent, queuedTasksOfIssue, readTaskUsage } from '@switchyard/persistence';
import { isoOf } from '../common/api-schemas';
import type { AgentUsage, IssueUsage, ModelUsage, TokenTotals } from './usage.schemas';

const zero = (): TokenTotals => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });

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
 * Token totals: the transcript's usage rows (written from the daemon's usage messages, which every
 * run sends whatever its outcome) of the tasks the queue's view finds for the workspace, issue or
 * agent, each read through its owner's reader. Every task lookup names the workspace.
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
    const tasks = await queuedTasksOfIssue(this.dataSource, { workspaceId, issueId });
    const usage = await readTaskUsage(this.dataSource, tasks.map((task) => task.taskId));
    const perTask = tasks.map((task) => ({
      taskId: task.taskId,
      agentId: task.agentId,
      status: task.status,
      enqueuedAt: isoOf(task.enqueuedAt),
      ...summarize(usage.filter((record) => record.taskId === task.taskId)),
    }));
    return { issueId, ...summarize(perTask.flatMap((task) => task.byModel)), tasks: perTask };
  }

  async ofAgent(workspaceId: string, agentId: string, since: string | undefined): Promise<AgentUsage> {
    const usage = await readTaskUsage(this.dataSource, await queuedTaskIdsOfAgent(this.dataSource, { workspaceId, agentId, since }));
    const taskCount = new Set(usage.map((record) => record.taskId)).size;
    return { agentId, since: since === undefined ? null : isoOf(since), taskCount, ...summarize(usage) };
  }
}
