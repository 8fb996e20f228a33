import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7 } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { returningRows, type RawQueryRunner } from '../database/returning-rows';
import { setClause } from '../database/update-set';
import { isoOf } from '../common/api-schemas';
import type { CreateIssueInput, IssueListQuery, IssuePriority, IssueView, UpdateIssueInput } from './issue.schemas';

export interface IssueRecord extends IssueView {
  readonly priority: IssuePriority;
  readonly assignmentTriggerKey: string | null;
}

interface IssueRow {
  id: string;
  title: string;
  description: string;
  status: IssueView['status'];
  priority: IssuePriority;
  assignee_agent_id: string | null;
  assignment_trigger_key: string | null;
  parent_issue_id: string | null;
  project: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, title, description, status, priority, assignee_agent_id, assignment_trigger_key, parent_issue_id, project, created_at, updated_at';

function recordOf(row: IssueRow): IssueRecord {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    status: row.status,
    priority: row.priority,
    assigneeAgentId: row.assignee_agent_id,
    assignmentTriggerKey: row.assignment_trigger_key,
    parentIssueId: row.parent_issue_id,
    project: row.project,
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  };
}

export function issueViewOf(record: IssueRecord): IssueView {
  const { assignmentTriggerKey: _internal, ...view } = record;
  return view;
}

/** Issues of one workspace; every query names the workspace. Writes run in the caller's transaction. */
@Injectable()
export class IssuesRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async list(workspaceId: string, query: IssueListQuery): Promise<IssueRecord[]> {
    const rows = await this.dataSource.query<IssueRow[]>(
      `select ${COLUMNS} from issue
        where workspace_id = $1 and ($2::text is null or parent_issue_id = $2) and ($3::text is null or status = $3)
          and ($4::text is null or assignee_agent_id = $4)
        order by created_at desc, id desc limit $5`,
      [workspaceId, query.parentIssueId ?? null, query.status ?? null, query.assigneeAgentId ?? null, query.limit],
    );
    return rows.map(recordOf);
  }

  async find(workspaceId: string, id: string, runner: RawQueryRunner = this.dataSource, options: { forUpdate?: boolean } = {}): Promise<IssueRecord | undefined> {
    const [row] = await runner.query<IssueRow[]>(`select ${COLUMNS} from issue where workspace_id = $1 and id = $2${options.forUpdate ? ' for update' : ''}`, [
      workspaceId,
      id,
    ]);
    return row ? recordOf(row) : undefined;
  }

  async findByIdempotencyKey(workspaceId: string, key: string): Promise<IssueRecord | undefined> {
    const [row] = await this.dataSource.query<IssueRow[]>(`select ${COLUMNS} from issue where workspace_id = $1 and idempotency_key = $2`, [workspaceId, key]);
    return row ? recordOf(row) : undefined;
  }

  /** True when `candidateParentId` is `issueId` or one of its descendants (a parent link would close a cycle). */
  async wouldCycle(runner: RawQueryRunner, options: { workspaceId: string; issueId: string; candidateParentId: string }): Promise<boolean> {
    const rows = await runner.query<Array<{ id: string }>>(
      `with recursive descendants(id) as (
         select $2::text
         union
         select issue.id from issue join descendants on issue.parent_issue_id = descendants.id where issue.workspace_id = $1
       ) select id from descendants where id = $3`,
      [options.workspaceId, options.issueId, options.candidateParentId],
    );
    return rows.length > 0;
  }

  async insert(
    runner: RawQueryRunner,
    options: { workspaceId: string; input: CreateIssueInput; project: string | null; idempotencyKey: string | undefined },
  ): Promise<IssueRecord> {
    const { input } = options;
    const [row] = await runner.query<IssueRow[]>(
      `insert into issue (id, workspace_id, title, description, status, priority, assignee_agent_id, parent_issue_id, project, idempotency_key)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning ${COLUMNS}`,
      [
        uuidv7(),
        options.workspaceId,
        input.title,
        input.description ?? '',
        input.status ?? 'todo',
        input.priority ?? 'none',
        input.assigneeAgentId ?? null,
        input.parentIssueId ?? null,
        options.project,
        options.idempotencyKey ?? null,
      ],
    );
    if (!row) throw new Error('insert into issue returned no row');
    return recordOf(row);
  }

  async update(runner: RawQueryRunner, options: { workspaceId: string; id: string; input: UpdateIssueInput; assignmentTriggerKey?: string | null }): Promise<IssueRecord> {
    const { input } = options;
    const set = setClause(
      [
        { column: 'title', value: input.title },
        { column: 'description', value: input.description },
        { column: 'status', value: input.status },
        { column: 'priority', value: input.priority },
        { column: 'assignee_agent_id', value: input.assigneeAgentId },
        { column: 'assignment_trigger_key', value: options.assignmentTriggerKey },
        { column: 'parent_issue_id', value: input.parentIssueId },
        { column: 'project', value: input.project },
      ],
      3,
    );
    const [row] = await returningRows<IssueRow>(runner, `update issue set ${set.sql} where workspace_id = $1 and id = $2 returning ${COLUMNS}`, [
      options.workspaceId,
      options.id,
      ...set.parameters,
    ]);
    if (!row) throw new Error(`update of issue ${options.id} returned no row`);
    return recordOf(row);
  }

  async setAssignmentTrigger(runner: RawQueryRunner, options: { workspaceId: string; id: string; triggerKey: string }): Promise<void> {
    await runner.query(`update issue set assignment_trigger_key = $3 where workspace_id = $1 and id = $2`, [options.workspaceId, options.id, options.triggerKey]);
  }

  /** Deletes the issue with its comments; its children stay, without a parent. False when the workspace has no such issue. */
  async delete(workspaceId: string, id: string): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(this.dataSource, `delete from issue where workspace_id = $1 and id = $2 returning id`, [workspaceId, id]);
    return rows.length > 0;
  }

  transaction<Result>(work: (runner: RawQueryRunner) => Promise<Result>): Promise<Result> {
    return this.dataSource.transaction((manager) => work(manager));
  }
}
