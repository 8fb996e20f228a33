import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { RawQueryRunner } from '../database/returning-rows';
import { isoOf } from '../common/api-schemas';
import type { TriggerEnqueue } from './trigger.schemas';

/** One trigger: at most one task, however often it is sent. */
export interface TaskTriggerRecord {
  readonly triggerKey: string;
  readonly agentId: string;
  readonly requestId: string;
  readonly enqueue: TriggerEnqueue;
  /** Null until the queue accepted it. */
  readonly taskId: string | null;
  readonly createdAt: string;
}

interface TaskTriggerRow {
  trigger_key: string;
  agent_id: string;
  request_id: string;
  enqueue: TriggerEnqueue;
  task_id: string | null;
  created_at: Date;
}

const COLUMNS = 'trigger_key, agent_id, request_id, enqueue, task_id, created_at';

function recordOf(row: TaskTriggerRow): TaskTriggerRecord {
  return { triggerKey: row.trigger_key, agentId: row.agent_id, requestId: row.request_id, enqueue: row.enqueue, taskId: row.task_id, createdAt: isoOf(row.created_at) };
}

/**
 * The queue's request id of a trigger: deterministic, so every re-send of one trigger is the same
 * request and the queue (idempotent by request id) answers it with the task it created first.
 */
export function requestIdOfTrigger(workspaceId: string, triggerKey: string): string {
  return `gateway:trigger:${workspaceId}:${triggerKey}`;
}

export interface NewTaskTrigger {
  readonly workspaceId: string;
  readonly triggerKey: string;
  readonly agentId: string;
  readonly issueId: string | null;
  readonly chatSessionId: string | null;
  readonly enqueue: TriggerEnqueue;
}

/** `task_trigger` rows; writes that belong to a request's transaction take its runner. */
@Injectable()
export class TaskTriggersRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** Inserts the trigger unless its key exists; either way returns the stored row (the first one wins). */
  async insert(runner: RawQueryRunner, trigger: NewTaskTrigger): Promise<TaskTriggerRecord> {
    await runner.query(
      `insert into task_trigger (trigger_key, workspace_id, agent_id, issue_id, chat_session_id, request_id, enqueue)
       values ($1, $2, $3, $4, $5, $6, $7::jsonb) on conflict (trigger_key) do nothing`,
      [
        trigger.triggerKey,
        trigger.workspaceId,
        trigger.agentId,
        trigger.issueId,
        trigger.chatSessionId,
        requestIdOfTrigger(trigger.workspaceId, trigger.triggerKey),
        JSON.stringify(trigger.enqueue),
      ],
    );
    const [stored] = await this.find(runner, trigger.workspaceId, [trigger.triggerKey]);
    if (!stored) throw new Error(`task_trigger ${trigger.triggerKey} is not readable after its insert`);
    return stored;
  }

  async find(runner: RawQueryRunner, workspaceId: string, triggerKeys: readonly string[]): Promise<TaskTriggerRecord[]> {
    if (triggerKeys.length === 0) return [];
    const rows = await runner.query<TaskTriggerRow[]>(
      `select ${COLUMNS} from task_trigger where workspace_id = $1 and trigger_key = any($2::text[]) order by created_at, trigger_key`,
      [workspaceId, [...triggerKeys]],
    );
    return rows.map(recordOf);
  }

  /** Triggers whose key starts with `prefix` (e.g. every mention of one comment). */
  async findByPrefix(runner: RawQueryRunner, workspaceId: string, prefix: string): Promise<TaskTriggerRecord[]> {
    const rows = await runner.query<TaskTriggerRow[]>(
      `select ${COLUMNS} from task_trigger where workspace_id = $1 and starts_with(trigger_key, $2) order by created_at, trigger_key`,
      [workspaceId, prefix],
    );
    return rows.map(recordOf);
  }

  /** When the agent was last triggered on the issue: "comments since its last task" start there. */
  async lastIssueTriggerAt(runner: RawQueryRunner, options: { workspaceId: string; agentId: string; issueId: string }): Promise<Date | null> {
    const [row] = await runner.query<Array<{ created_at: Date | null }>>(
      `select max(created_at) as created_at from task_trigger where workspace_id = $1 and agent_id = $2 and issue_id = $3`,
      [options.workspaceId, options.agentId, options.issueId],
    );
    return row?.created_at ?? null;
  }

  /** Triggers of every workspace whose key starts with `prefix`, not yet accepted by the queue, in an age window: for a sweeper. */
  async pendingByPrefix(options: {
    prefix: string;
    olderThanSeconds: number;
    youngerThanSeconds: number;
    limit: number;
  }): Promise<Array<{ workspaceId: string; trigger: TaskTriggerRecord }>> {
    const rows = await this.dataSource.query<Array<TaskTriggerRow & { workspace_id: string }>>(
      `select workspace_id, ${COLUMNS} from task_trigger
        where task_id is null and starts_with(trigger_key, $1)
          and created_at < now() - make_interval(secs => $2) and created_at > now() - make_interval(secs => $3)
        order by created_at limit $4`,
      [options.prefix, options.olderThanSeconds, options.youngerThanSeconds, options.limit],
    );
    return rows.map((row) => ({ workspaceId: row.workspace_id, trigger: recordOf(row) }));
  }

  async markEnqueued(options: { workspaceId: string; triggerKey: string; taskId: string }): Promise<void> {
    await this.dataSource.query(`update task_trigger set task_id = $3, enqueued_at = now() where workspace_id = $1 and trigger_key = $2 and task_id is null`, [
      options.workspaceId,
      options.triggerKey,
      options.taskId,
    ]);
  }

  get runner(): RawQueryRunner {
    return this.dataSource;
  }
}
