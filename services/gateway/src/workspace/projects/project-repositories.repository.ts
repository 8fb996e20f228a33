import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DEFAULT_BRANCH_TEMPLATE, uuidv7, type RepositoryCheckoutMode } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { ApiError, notFound } from '../common/api-error';
import { isoOf } from '../common/api-schemas';
import { isForeignKeyViolation } from '../database/foreign-key-violation';
import { returningRows, type RawQueryRunner } from '../database/returning-rows';
import { isUniqueViolation } from '../database/unique-violation';
import { setClause } from '../database/update-set';
import type { CreateRepositoryInput, RepositoryView, UpdateRepositoryInput } from './repository.schemas';
import { repositorySettingsProblems } from './repository-settings.rules';

interface RepositoryRow {
  id: string;
  project_id: string;
  name: string;
  checkout_mode: RepositoryCheckoutMode;
  url: string | null;
  local_path: string | null;
  default_branch: string;
  branch_template: string;
  credential_username: string | null;
  credential_secret_name: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'id, project_id, name, checkout_mode, url, local_path, default_branch, branch_template, credential_username, credential_secret_name, created_at, updated_at';

const DEFAULT_BRANCH = 'main';

function viewOf(row: RepositoryRow): RepositoryView {
  return {
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    checkoutMode: row.checkout_mode,
    url: row.url,
    localPath: row.local_path,
    defaultBranch: row.default_branch,
    branchTemplate: row.branch_template,
    credential:
      row.credential_username !== null && row.credential_secret_name !== null
        ? { kind: 'https_token', username: row.credential_username, secretName: row.credential_secret_name }
        : null,
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  };
}

/** Which repository: ids are checked against the workspace and project in the SQL itself. */
export interface RepositoryKey {
  readonly workspaceId: string;
  readonly projectId: string;
  readonly id: string;
}

/** The fields a repository is stored with, a create's defaults or a PATCH merged over what is stored. */
type RepositoryFields = Omit<RepositoryView, 'id' | 'projectId' | 'createdAt' | 'updatedAt'>;

/** 400 `invalid_repository` with every broken rule, before anything is written. */
function checkSettings(fields: RepositoryFields): void {
  const problems = repositorySettingsProblems({ ...fields, hasCredential: fields.credential !== null });
  if (problems.length === 0) return;
  const summary = problems.map((problem) => `${problem.field}: ${problem.message}`).join('; ');
  throw new ApiError('invalid_repository', `invalid repository ${JSON.stringify(fields.name)}: ${summary}`, { problems });
}

/** The database's refusals as the API's codes: a taken name, a project or secret that is not there. */
function writeError(error: unknown, fields: { name: string; projectId: string; secretName: string | undefined }): unknown {
  if (isUniqueViolation(error, 'project_repository_name_per_workspace')) {
    return new ApiError('repository_name_taken', `a repository named ${JSON.stringify(fields.name)} exists in the workspace`);
  }
  if (isForeignKeyViolation(error, 'project_repository_secret')) {
    return new ApiError('secret_not_found', `the workspace has no secret named ${JSON.stringify(fields.secretName)}`);
  }
  if (isForeignKeyViolation(error, 'project_repository_project')) return notFound('project', fields.projectId);
  return error;
}

const credentialOf = (credential: CreateRepositoryInput['credential']): RepositoryFields['credential'] =>
  credential ? { kind: 'https_token', username: credential.username, secretName: credential.secretName } : null;

/**
 * The git repositories of a workspace's projects (`project_repository`), every query scoped by the
 * workspace id. Settings are checked together before a write; the credential names a workspace
 * secret, whose value never passes through here.
 */
@Injectable()
export class ProjectRepositoriesRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async listOfProject(workspaceId: string, projectId: string): Promise<RepositoryView[]> {
    const rows = await this.dataSource.query<RepositoryRow[]>(`select ${COLUMNS} from project_repository where workspace_id = $1 and project_id = $2 order by name`, [
      workspaceId,
      projectId,
    ]);
    return rows.map(viewOf);
  }

  async listOfWorkspace(workspaceId: string): Promise<RepositoryView[]> {
    const rows = await this.dataSource.query<RepositoryRow[]>(`select ${COLUMNS} from project_repository where workspace_id = $1 order by name`, [workspaceId]);
    return rows.map(viewOf);
  }

  /** The names of the repositories whose credential uses the secret: what blocks its deletion. */
  async namesUsingSecret(workspaceId: string, secretName: string): Promise<string[]> {
    const rows = await this.dataSource.query<Array<{ name: string }>>(
      'select name from project_repository where workspace_id = $1 and credential_secret_name = $2 order by name',
      [workspaceId, secretName],
    );
    return rows.map((row) => row.name);
  }

  async find(key: RepositoryKey, options: { readonly runner?: RawQueryRunner; readonly forUpdate?: boolean } = {}): Promise<RepositoryView | undefined> {
    const [row] = await (options.runner ?? this.dataSource).query<RepositoryRow[]>(
      `select ${COLUMNS} from project_repository where workspace_id = $1 and project_id = $2 and id = $3${options.forUpdate ? ' for update' : ''}`,
      [key.workspaceId, key.projectId, key.id],
    );
    return row ? viewOf(row) : undefined;
  }

  async create(project: Omit<RepositoryKey, 'id'>, input: CreateRepositoryInput): Promise<RepositoryView> {
    const { workspaceId, projectId } = project;
    const fields: RepositoryFields = {
      name: input.name,
      checkoutMode: input.checkoutMode ?? 'worktree',
      url: input.url ?? null,
      localPath: input.localPath ?? null,
      defaultBranch: input.defaultBranch ?? DEFAULT_BRANCH,
      branchTemplate: input.branchTemplate ?? DEFAULT_BRANCH_TEMPLATE,
      credential: credentialOf(input.credential),
    };
    checkSettings(fields);
    try {
      const [row] = await this.dataSource.query<RepositoryRow[]>(
        `insert into project_repository (id, workspace_id, project_id, name, checkout_mode, url, local_path, default_branch, branch_template, credential_username, credential_secret_name)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning ${COLUMNS}`,
        [
          uuidv7(),
          workspaceId,
          projectId,
          fields.name,
          fields.checkoutMode,
          fields.url,
          fields.localPath,
          fields.defaultBranch,
          fields.branchTemplate,
          fields.credential?.username ?? null,
          fields.credential?.secretName ?? null,
        ],
      );
      if (!row) throw new Error('insert into project_repository returned no row');
      return viewOf(row);
    } catch (error) {
      throw writeError(error, { name: fields.name, projectId, secretName: fields.credential?.secretName });
    }
  }

  /** The PATCH merged over the stored settings, checked as a whole; undefined when there is no such repository. */
  async update(key: RepositoryKey, input: UpdateRepositoryInput): Promise<RepositoryView | undefined> {
    const { workspaceId, projectId, id } = key;
    try {
      return await this.dataSource.transaction(async (manager) => {
        const stored = await this.find(key, { runner: manager, forUpdate: true });
        if (!stored) return undefined;
        const fields: RepositoryFields = {
          name: input.name ?? stored.name,
          checkoutMode: input.checkoutMode ?? stored.checkoutMode,
          url: input.url === undefined ? stored.url : input.url,
          localPath: input.localPath === undefined ? stored.localPath : input.localPath,
          defaultBranch: input.defaultBranch ?? stored.defaultBranch,
          branchTemplate: input.branchTemplate ?? stored.branchTemplate,
          credential: input.credential === undefined ? stored.credential : credentialOf(input.credential),
        };
        checkSettings(fields);
        const set = setClause(
          [
            { column: 'name', value: fields.name },
            { column: 'checkout_mode', value: fields.checkoutMode },
            { column: 'url', value: fields.url },
            { column: 'local_path', value: fields.localPath },
            { column: 'default_branch', value: fields.defaultBranch },
            { column: 'branch_template', value: fields.branchTemplate },
            { column: 'credential_username', value: fields.credential?.username ?? null },
            { column: 'credential_secret_name', value: fields.credential?.secretName ?? null },
          ],
          4,
        );
        const [row] = await returningRows<RepositoryRow>(
          manager,
          `update project_repository set ${set.sql} where workspace_id = $1 and project_id = $2 and id = $3 returning ${COLUMNS}`,
          [workspaceId, projectId, id, ...set.parameters],
        );
        return row ? viewOf(row) : undefined;
      });
    } catch (error) {
      throw writeError(error, { name: input.name ?? '', projectId, secretName: input.credential?.secretName });
    }
  }

  async remove(key: RepositoryKey): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(this.dataSource, 'delete from project_repository where workspace_id = $1 and project_id = $2 and id = $3 returning id', [
      key.workspaceId,
      key.projectId,
      key.id,
    ]);
    return rows.length > 0;
  }
}
