import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { randomBytes } from 'node:crypto';
import { DATA_SOURCE } from '@switchyard/persistence';
import { AuditTrail } from '../audit/audit.trail';
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
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly audit: AuditTrail,
  ) {}

  async find(workspaceId: string): Promise<WorkspaceView | undefined> {
    const [row] = await this.dataSource.query<WorkspaceRow[]>(`select ${COLUMNS} from workspace where id = $1`, [workspaceId]);
    return row ? viewOf(row) : undefined;
  }

  /** The default TTL of the workspace's queued tasks (null: none), read at each enqueue. */
  async queuedTaskTtlSeconds(workspaceId: string): Promise<number | null> {
    const [row] = await this.dataSource.query<Array<Pick<WorkspaceRow, 'queued_task_ttl_seconds'>>>('select queued_task_ttl_seconds from workspace where id = $1', [workspaceId]);
    return row?.queued_task_ttl_seconds ?? null;
  }

  /**
   * A workspace owned by its creator, with a first personal token of theirs in it, in one
   * transaction: all or nothing. The id is generated here; `workspace_limit` past
   * GATEWAY_MAX_OWNED_WORKSPACES owned workspaces.
   */
  create(input: CreateWorkspaceInput, owner: { readonly userId: string; readonly maxOwned: number }): Promise<CreatedWorkspace> {
    return this.dataSource.transaction(async (manager) => {
      // Serializes this person's creations, so two at once cannot both pass the limit.
      await manager.query('select pg_advisory_xact_lock(hashtext($1))', [`workspace-owner:${owner.userId}`]);
      const [row0] = await manager.query<Array<{ owned: number }>>(`select count(*)::int as owned from workspace_member where user_id = $1 and role = 'owner'`, [owner.userId]);
      const owned = row0?.owned ?? 0;
      if (owned >= owner.maxOwned) throw new ApiError('workspace_limit', `you own ${owned} workspaces, the most one person may (GATEWAY_MAX_OWNED_WORKSPACES)`);
      const [row] = await manager.query<WorkspaceRow[]>(`insert into workspace (id, name, queued_task_ttl_seconds) values ($1, $2, $3) returning ${COLUMNS}`, [
        `ws-${randomBytes(10).toString('hex')}`,
        input.name,
        input.queuedTaskTtlSeconds ?? null,
      ]);
      if (!row) throw new Error('insert into workspace returned no row');
      await manager.query(`insert into workspace_member (workspace_id, user_id, role) values ($1, $2, 'owner')`, [row.id, owner.userId]);
      const token = await insertApiToken(manager, { workspaceId: row.id, userId: owner.userId, name: `first token of ${input.name}` });
      await this.audit.record({ workspaceId: row.id, actor: { kind: 'user', id: owner.userId }, action: 'workspace.created', target: { kind: 'workspace', id: row.id }, details: { name: input.name } }, manager);
      return { workspace: viewOf(row), role: 'owner' as const, token };
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
