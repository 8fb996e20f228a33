import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7 } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { ApiError } from '../common/api-error';
import { isoOf } from '../common/api-schemas';
import { isForeignKeyViolation } from '../database/foreign-key-violation';
import { returningRows } from '../database/returning-rows';
import { isUniqueViolation } from '../database/unique-violation';
import { setClause } from '../database/update-set';
import type { CreateProjectInput, ProjectView, UpdateProjectInput } from './project.schemas';

interface ProjectRow {
  id: string;
  name: string;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, name, description, created_at, updated_at';

const viewOf = (row: ProjectRow): ProjectView => ({
  id: row.id,
  name: row.name,
  description: row.description,
  createdAt: isoOf(row.created_at),
  updatedAt: isoOf(row.updated_at),
});

/** Projects of one workspace (`project`); every query is scoped by the workspace id. */
@Injectable()
export class ProjectsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async list(workspaceId: string): Promise<ProjectView[]> {
    const rows = await this.dataSource.query<ProjectRow[]>(`select ${COLUMNS} from project where workspace_id = $1 order by name, id`, [workspaceId]);
    return rows.map(viewOf);
  }

  async find(workspaceId: string, id: string): Promise<ProjectView | undefined> {
    const [row] = await this.dataSource.query<ProjectRow[]>(`select ${COLUMNS} from project where workspace_id = $1 and id = $2`, [workspaceId, id]);
    return row ? viewOf(row) : undefined;
  }

  /** By name, as an issue's `project` names it (exactly: names are stored trimmed, as issues store theirs). */
  async findByName(workspaceId: string, name: string): Promise<ProjectView | undefined> {
    const [row] = await this.dataSource.query<ProjectRow[]>(`select ${COLUMNS} from project where workspace_id = $1 and name = $2`, [workspaceId, name]);
    return row ? viewOf(row) : undefined;
  }

  async create(workspaceId: string, input: CreateProjectInput): Promise<ProjectView> {
    try {
      const [row] = await this.dataSource.query<ProjectRow[]>(`insert into project (id, workspace_id, name, description) values ($1, $2, $3, $4) returning ${COLUMNS}`, [
        uuidv7(),
        workspaceId,
        input.name,
        input.description ?? null,
      ]);
      if (!row) throw new Error('insert into project returned no row');
      return viewOf(row);
    } catch (error) {
      if (isUniqueViolation(error, 'project_name_per_workspace')) throw new ApiError('project_name_taken', `a project named ${JSON.stringify(input.name)} exists`);
      throw error;
    }
  }

  async update(workspaceId: string, id: string, input: UpdateProjectInput): Promise<ProjectView | undefined> {
    const set = setClause([{ column: 'description', value: input.description }], 3);
    const [row] = await returningRows<ProjectRow>(this.dataSource, `update project set ${set.sql} where workspace_id = $1 and id = $2 returning ${COLUMNS}`, [
      workspaceId,
      id,
      ...set.parameters,
    ]);
    return row ? viewOf(row) : undefined;
  }

  /** False when there is no such project; 409 `project_not_empty` while it has repositories. */
  async remove(workspaceId: string, id: string): Promise<boolean> {
    try {
      const rows = await returningRows<{ id: string }>(this.dataSource, 'delete from project where workspace_id = $1 and id = $2 returning id', [workspaceId, id]);
      return rows.length > 0;
    } catch (error) {
      if (isForeignKeyViolation(error, 'project_repository_project')) throw new ApiError('project_not_empty', `project ${id} still has repositories; delete them first`);
      throw error;
    }
  }
}
