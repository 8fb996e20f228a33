import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7 } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { ApiError } from '../common/api-error';
import { isoOf } from '../common/api-schemas';
import { returningRows } from '../database/returning-rows';
import { insertApiToken } from '../tokens/api-tokens.repository';
import type { CreateWorkspaceInput, CreatedWorkspace, UpdateWorkspaceInput, WorkspaceView } from './workspace.schemas';

interface WorkspaceRow {
  id: string;
  name: string;
  queued_task_ttl_seconds: number | null;
  created_at: Date;
}

const COLUMNS = 'id, name, queued_task_ttl_seconds, created_at';

const viewOf = (row: WorkspaceRow): WorkspaceView => ({
  id: row.id,
  name: row.name,
  queuedTaskTtlSeconds: row.queued_task_ttl_seconds,
  createdAt: isoOf(row.created_at),
});

@Injectable()
export class WorkspacesRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async find(workspaceId: string): Promise<WorkspaceView | undefined> {
    const [row] = await this.dataSource.query<WorkspaceRow[]>(`select ${COLUMNS} from workspace where id = $1`, [workspaceId]);
    return row ? viewOf(row) : undefined;
  }

  /** The default TTL of the workspace's queued tasks (null: none), read at each enqueue. */
  async queuedTaskTtlSeconds(workspaceId: string): Promise<number | null> {
    const [row] = await this.dataSource.query<Array<Pick<WorkspaceRow, 'queued_task_ttl_seconds'>>>('select queued_task_ttl_seconds from workspace where id = $1', [workspaceId]);
    return row?.queued_task_ttl_seconds ?? null;
  }

  /** The workspace and its first token, in one transaction: both or neither. */
  create(input: CreateWorkspaceInput): Promise<CreatedWorkspace> {
    return this.dataSource.transaction(async (manager) => {
      const id = input.id ?? uuidv7();
      const [row] = await manager.query<WorkspaceRow[]>(
        `insert into workspace (id, name, queued_task_ttl_seconds) values ($1, $2, $3) on conflict (id) do nothing returning ${COLUMNS}`,
        [id, input.name, input.queuedTaskTtlSeconds ?? null],
      );
      if (!row) throw new ApiError('workspace_exists', `workspace ${id} already exists`);
      const token = await insertApiToken(manager, { workspaceId: row.id, name: `first token of ${input.name}` });
      return { workspace: viewOf(row), token };
    });
  }

  /** Only the settings the input names change; undefined when there is no such workspace. */
  async update(workspaceId: string, input: UpdateWorkspaceInput): Promise<WorkspaceView | undefined> {
    const [row] = await returningRows<WorkspaceRow>(
      this.dataSource,
      `update workspace set queued_task_ttl_seconds = case when $2 then $3::integer else queued_task_ttl_seconds end where id = $1 returning ${COLUMNS}`,
      [workspaceId, input.queuedTaskTtlSeconds !== undefined, input.queuedTaskTtlSeconds ?? null],
    );
    return row ? viewOf(row) : undefined;
  }
}
