import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7, type SkillFiles, type SkillVersionRef } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { returningRows } from '../database/returning-rows';
import { isUniqueViolation } from '../database/unique-violation';
import { ApiError } from '../common/api-error';
import { isoOf } from '../common/api-schemas';
import type { CheckedSkillBundle } from './skill-bundle.check';
import type { SkillDetail, SkillView } from './skill.schemas';

interface SkillRow {
  id: string;
  name: string;
  description: string | null;
  version: number;
  content_hash: string;
  file_count: number;
  size_bytes: number;
  created_at: Date;
  updated_at: Date;
}

// The skill with its current version's facts; `files` only where a caller asks for them.
const SELECT_CURRENT = `select s.id, s.name, v.description, s.current_version as version, v.content_hash, v.file_count, v.size_bytes, s.created_at, s.updated_at
  from skill s join skill_version v on v.skill_id = s.id and v.version = s.current_version`;

function viewOf(row: SkillRow): SkillView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    version: row.version,
    contentHash: row.content_hash,
    fileCount: row.file_count,
    sizeBytes: row.size_bytes,
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  };
}

/** The workspace skill store: skills and their immutable versions; every query is scoped by workspace. */
@Injectable()
export class SkillsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async list(workspaceId: string): Promise<SkillView[]> {
    const rows = await this.dataSource.query<SkillRow[]>(`${SELECT_CURRENT} where s.workspace_id = $1 order by s.name, s.id`, [workspaceId]);
    return rows.map(viewOf);
  }

  async find(workspaceId: string, id: string): Promise<SkillDetail | undefined> {
    const [row] = await this.dataSource.query<Array<SkillRow & { files: SkillFiles }>>(
      `select c.*, v.files from (${SELECT_CURRENT} where s.workspace_id = $1 and s.id = $2) c join skill_version v on v.skill_id = c.id and v.version = c.version`,
      [workspaceId, id],
    );
    return row ? { ...viewOf(row), files: row.files } : undefined;
  }

  async create(workspaceId: string, name: string, bundle: CheckedSkillBundle): Promise<SkillView> {
    const id = uuidv7();
    try {
      await this.dataSource.transaction(async (manager) => {
        await manager.query('insert into skill (id, workspace_id, name, current_version) values ($1, $2, $3, 1)', [id, workspaceId, name]);
        await insertVersion(manager, { skillId: id, version: 1, bundle });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError('skill_name_taken', `a skill named ${JSON.stringify(name)} exists`);
      throw error;
    }
    return this.viewOrFail(workspaceId, id);
  }

  /**
   * Adds a version and makes it current, unless the bundle is the current one (same hash): then
   * nothing is written. Versions lock the skill row, so two updates never take the same number.
   */
  async addVersion(workspaceId: string, id: string, bundle: CheckedSkillBundle): Promise<SkillView | undefined> {
    const changed = await this.dataSource.transaction(async (manager) => {
      const [current] = await manager.query<Array<{ version: number; content_hash: string }>>(
        `select s.current_version as version, v.content_hash from skill s join skill_version v on v.skill_id = s.id and v.version = s.current_version
         where s.workspace_id = $1 and s.id = $2 for update of s`,
        [workspaceId, id],
      );
      if (!current) return false;
      if (current.content_hash === bundle.contentHash) return true;
      const version = current.version + 1;
      await insertVersion(manager, { skillId: id, version, bundle });
      await manager.query('update skill set current_version = $2, updated_at = now() where id = $1', [id, version]);
      return true;
    });
    return changed ? this.viewOrFail(workspaceId, id) : undefined;
  }

  async remove(workspaceId: string, id: string): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(this.dataSource, 'delete from skill where workspace_id = $1 and id = $2 returning id', [workspaceId, id]);
    return rows.length > 0;
  }

  /** The current version of each named skill the workspace has, with its files; names it lacks are left out. */
  async currentVersions(workspaceId: string, names: readonly string[]): Promise<Array<SkillVersionRef & { files: SkillFiles }>> {
    if (names.length === 0) return [];
    return this.dataSource.query<Array<SkillVersionRef & { files: SkillFiles }>>(
      `select s.name, v.content_hash as hash, v.files from skill s join skill_version v on v.skill_id = s.id and v.version = s.current_version
       where s.workspace_id = $1 and s.name = any($2::text[])`,
      [workspaceId, [...names]],
    );
  }

  private async viewOrFail(workspaceId: string, id: string): Promise<SkillView> {
    const [row] = await this.dataSource.query<SkillRow[]>(`${SELECT_CURRENT} where s.workspace_id = $1 and s.id = $2`, [workspaceId, id]);
    if (!row) throw new Error(`skill ${id} was written but cannot be read back`);
    return viewOf(row);
  }
}

function insertVersion(runner: { query(sql: string, parameters: unknown[]): Promise<unknown> }, options: { skillId: string; version: number; bundle: CheckedSkillBundle }): Promise<unknown> {
  const { bundle } = options;
  return runner.query(
    `insert into skill_version (skill_id, version, content_hash, description, files, file_count, size_bytes) values ($1, $2, $3, $4, $5::jsonb, $6, $7)`,
    [options.skillId, options.version, bundle.contentHash, bundle.description, JSON.stringify(bundle.files), bundle.fileCount, bundle.sizeBytes],
  );
}
