import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7 } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { ApiError } from '../common/api-error';
import { isoOf } from '../common/api-schemas';
import { insertApiToken } from '../tokens/api-tokens.repository';
import type { CreateWorkspaceInput, CreatedWorkspace, WorkspaceView } from './workspace.schemas';

interface WorkspaceRow {
  id: string;
  name: string;
  created_at: Date;
}

const viewOf = (row: WorkspaceRow): WorkspaceView => ({ id: row.id, name: row.name, createdAt: isoOf(row.created_at) });

@Injectable()
export class WorkspacesRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async find(workspaceId: string): Promise<WorkspaceView | undefined> {
    const [row] = await this.dataSource.query<WorkspaceRow[]>('select id, name, created_at from workspace where id = $1', [workspaceId]);
    return row ? viewOf(row) : undefined;
  }

  /** The workspace and its first token, in one transaction: both or neither. */
  create(input: CreateWorkspaceInput): Promise<CreatedWorkspace> {
    return this.dataSource.transaction(async (manager) => {
      const id = input.id ?? uuidv7();
      const [row] = await manager.query<WorkspaceRow[]>(
        'insert into workspace (id, name) values ($1, $2) on conflict (id) do nothing returning id, name, created_at',
        [id, input.name],
      );
      if (!row) throw new ApiError('workspace_exists', `workspace ${id} already exists`);
      const token = await insertApiToken(manager, { workspaceId: row.id, name: `first token of ${input.name}` });
      return { workspace: viewOf(row), token };
    });
  }
}
