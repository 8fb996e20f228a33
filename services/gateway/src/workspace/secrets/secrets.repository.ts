import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7 } from '@switchyard/contracts';
import { DATA_SOURCE, type SecretKeyring } from '@switchyard/persistence';
import { GATEWAY_SECRET_KEYRING } from '../../gateway.injection-keys';
import { ApiError } from '../common/api-error';
import { isoOf } from '../common/api-schemas';
import { isForeignKeyViolation } from '../database/foreign-key-violation';
import { returningRows } from '../database/returning-rows';
import { isUniqueViolation } from '../database/unique-violation';
import { setClause } from '../database/update-set';
import type { CreateSecretInput, SecretView, UpdateSecretInput } from './secret.schemas';
import { workspaceSecretAtRest } from './workspace-secret.at-rest';

interface SecretRow {
  id: string;
  name: string;
  description: string | null;
  value_set_at: Date;
  created_at: Date;
  updated_at: Date;
}

// Never `sealed_value`: what is read for a view cannot carry the value, even sealed.
const COLUMNS = 'id, name, description, value_set_at, created_at, updated_at';

function viewOf(row: SecretRow): SecretView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    valueSetAt: isoOf(row.value_set_at),
    createdAt: isoOf(row.created_at),
    updatedAt: isoOf(row.updated_at),
  };
}

const nameTaken = (error: unknown, name: string): unknown =>
  isUniqueViolation(error, 'workspace_secret_name_per_workspace') ? new ApiError('secret_name_taken', `a secret named ${JSON.stringify(name)} exists`) : error;

/**
 * Secrets of one workspace (`workspace_secret`), every query scoped by its id. A value is sealed
 * with the gateway's keyring before it is written and opened only for a task's snapshot.
 */
@Injectable()
export class SecretsRepository {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(GATEWAY_SECRET_KEYRING) private readonly keyring: SecretKeyring,
  ) {}

  async list(workspaceId: string): Promise<SecretView[]> {
    const rows = await this.dataSource.query<SecretRow[]>(`select ${COLUMNS} from workspace_secret where workspace_id = $1 order by name`, [workspaceId]);
    return rows.map(viewOf);
  }

  async find(workspaceId: string, id: string): Promise<SecretView | undefined> {
    const [row] = await this.dataSource.query<SecretRow[]>(`select ${COLUMNS} from workspace_secret where workspace_id = $1 and id = $2`, [workspaceId, id]);
    return row ? viewOf(row) : undefined;
  }

  /** By name, as a repository credential names it. */
  async findByName(workspaceId: string, name: string): Promise<SecretView | undefined> {
    const [row] = await this.dataSource.query<SecretRow[]>(`select ${COLUMNS} from workspace_secret where workspace_id = $1 and name = $2`, [workspaceId, name]);
    return row ? viewOf(row) : undefined;
  }

  async create(workspaceId: string, input: CreateSecretInput): Promise<SecretView> {
    try {
      const [row] = await this.dataSource.query<SecretRow[]>(
        `insert into workspace_secret (id, workspace_id, name, description, sealed_value) values ($1, $2, $3, $4, $5) returning ${COLUMNS}`,
        [uuidv7(), workspaceId, input.name, input.description ?? null, workspaceSecretAtRest.seal(this.keyring, input.value)],
      );
      if (!row) throw new Error('insert into workspace_secret returned no row');
      return viewOf(row);
    } catch (error) {
      throw nameTaken(error, input.name);
    }
  }

  async update(workspaceId: string, id: string, input: UpdateSecretInput): Promise<SecretView | undefined> {
    const set = setClause(
      [
        { column: 'sealed_value', value: input.value === undefined ? undefined : workspaceSecretAtRest.seal(this.keyring, input.value) },
        { column: 'description', value: input.description },
      ],
      3,
    );
    const valueSetAt = input.value === undefined ? '' : ', value_set_at = now()';
    const [row] = await returningRows<SecretRow>(
      this.dataSource,
      `update workspace_secret set ${set.sql}${valueSetAt} where workspace_id = $1 and id = $2 returning ${COLUMNS}`,
      [workspaceId, id, ...set.parameters],
    );
    return row ? viewOf(row) : undefined;
  }

  /** False when the workspace has no such secret; 409 `secret_in_use` while a repository's credential names it. */
  async remove(workspaceId: string, id: string): Promise<boolean> {
    try {
      const rows = await returningRows<{ id: string }>(this.dataSource, 'delete from workspace_secret where workspace_id = $1 and id = $2 returning id', [workspaceId, id]);
      return rows.length > 0;
    } catch (error) {
      if (isForeignKeyViolation(error, 'project_repository_secret')) throw new ApiError('secret_in_use', `secret ${id} is used by a repository’s credential`);
      throw error;
    }
  }

  /**
   * The value of the secret named `name`, for the snapshot of a task only: undefined when the
   * workspace has no such secret; throws `SecretUnreadableError` when the keyring cannot open it.
   */
  async openValue(workspaceId: string, name: string): Promise<string | undefined> {
    const [row] = await this.dataSource.query<Array<{ sealed_value: string }>>('select sealed_value from workspace_secret where workspace_id = $1 and name = $2', [
      workspaceId,
      name,
    ]);
    return row ? workspaceSecretAtRest.open(this.keyring, row.sealed_value) : undefined;
  }

  /**
   * Every value of the workspace the keyring opens, as exact secrets for redacting task text. One
   * it cannot open is left out: no task since the key was lost can have been given it by us.
   */
  async openableValues(workspaceId: string): Promise<string[]> {
    const rows = await this.dataSource.query<Array<{ sealed_value: string }>>('select sealed_value from workspace_secret where workspace_id = $1', [workspaceId]);
    return rows.map((row) => workspaceSecretAtRest.tryOpen(this.keyring, row.sealed_value)).filter((value): value is string => value !== undefined);
  }

  /** Seals again every value under an older key (after a rotation); answers how many moved and the ids that open under no key. */
  async resealValues(): Promise<{ resealed: number; unreadable: string[] }> {
    const rows = await this.dataSource.query<Array<{ id: string; sealed_value: string }>>('select id, sealed_value from workspace_secret order by id');
    let resealed = 0;
    const unreadable: string[] = [];
    for (const row of rows) {
      if (!this.keyring.needsResealing(row.sealed_value)) continue;
      const value = workspaceSecretAtRest.tryOpen(this.keyring, row.sealed_value);
      if (value === undefined) {
        unreadable.push(row.id);
        continue;
      }
      // Only if nobody set a new value meanwhile.
      const changed = await returningRows<{ id: string }>(this.dataSource, 'update workspace_secret set sealed_value = $2 where id = $1 and sealed_value = $3 returning id', [
        row.id,
        workspaceSecretAtRest.seal(this.keyring, value),
        row.sealed_value,
      ]);
      resealed += changed.length;
    }
    return { resealed, unreadable };
  }
}
