import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { uuidv7 } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { generateApiToken, hashApiToken } from './api-token.codec';
import { isoOrNull, isoOf } from '../common/api-schemas';
import { returningRows } from '../database/returning-rows';
import type { ApiTokenView, CreatedApiToken } from './api-token.schemas';

interface ApiTokenRow {
  id: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, name, created_at, last_used_at, revoked_at';

/** Inserts a new token of a workspace in the caller's transaction; the secret leaves only in the result. */
export async function insertApiToken(manager: EntityManager, options: { readonly workspaceId: string; readonly name: string }): Promise<CreatedApiToken> {
  const token = generateApiToken();
  const [row] = await manager.query<ApiTokenRow[]>(
    `insert into api_token (id, workspace_id, name, token_hash) values ($1, $2, $3, $4) returning ${COLUMNS}`,
    [uuidv7(), options.workspaceId, options.name, hashApiToken(token)],
  );
  if (!row) throw new Error('insert into api_token returned no row');
  const { current: _current, ...view } = viewOf(row, '');
  return { ...view, token };
}

function viewOf(row: ApiTokenRow, currentTokenId: string): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    createdAt: isoOf(row.created_at),
    lastUsedAt: isoOrNull(row.last_used_at),
    revokedAt: isoOrNull(row.revoked_at),
    current: row.id === currentTokenId,
  };
}

/** API tokens of one workspace; every query is scoped by the caller's workspace id. */
@Injectable()
export class ApiTokensRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  create(options: { readonly workspaceId: string; readonly name: string }): Promise<CreatedApiToken> {
    return insertApiToken(this.dataSource.manager, options);
  }

  async list(workspaceId: string, currentTokenId: string): Promise<ApiTokenView[]> {
    const rows = await this.dataSource.query<ApiTokenRow[]>(`select ${COLUMNS} from api_token where workspace_id = $1 order by created_at, id`, [workspaceId]);
    return rows.map((row) => viewOf(row, currentTokenId));
  }

  /** Revokes (idempotently: the first revocation time stays); false when the workspace has no such token. */
  async revoke(workspaceId: string, tokenId: string): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(
      this.dataSource,
      `update api_token set revoked_at = coalesce(revoked_at, now()) where id = $1 and workspace_id = $2 returning id`,
      [tokenId, workspaceId],
    );
    return rows.length > 0;
  }
}
