import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { uuidv7 } from '@switchyard/contracts';
import { DATA_SOURCE } from '@switchyard/persistence';
import { generateApiToken, hashApiToken } from './api-token.codec';
import { isoOrNull, isoOf } from '../common/api-schemas';
import { returningRows, type RawQueryRunner } from '../database/returning-rows';
import { isPermission, type Permission } from '../common/access.matrix';
import type { ApiTokenView, CreatedApiToken } from './api-token.schemas';

interface ApiTokenRow {
  id: string;
  name: string;
  user_id: string;
  scopes: string[] | null;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, name, user_id, scopes, created_at, expires_at, last_used_at, revoked_at';

/** Inserts a personal token of a member in the caller's transaction; the secret leaves only in the result. */
export async function insertApiToken(
  runner: RawQueryRunner,
  options: { readonly workspaceId: string; readonly userId: string; readonly name: string; readonly scopes?: readonly Permission[] | undefined; readonly expiresInDays?: number | undefined },
): Promise<CreatedApiToken> {
  const token = generateApiToken();
  const [row] = await runner.query<ApiTokenRow[]>(
    `insert into api_token (id, workspace_id, user_id, name, token_hash, scopes, expires_at)
     values ($1, $2, $3, $4, $5, $6, case when $7::integer is null then null else now() + make_interval(days => $7) end) returning ${COLUMNS}`,
    [uuidv7(), options.workspaceId, options.userId, options.name, hashApiToken(token), options.scopes ? [...options.scopes] : null, options.expiresInDays ?? null],
  );
  if (!row) throw new Error('insert into api_token returned no row');
  const { current: _current, ...view } = viewOf(row, '');
  return { ...view, token };
}

/** Revokes every token of the member in the workspace (they left it); returns the ids revoked now. */
export async function revokeTokensOfMember(runner: RawQueryRunner, options: { readonly workspaceId: string; readonly userId: string }): Promise<string[]> {
  const rows = await returningRows<{ id: string }>(runner, 'update api_token set revoked_at = now() where workspace_id = $1 and user_id = $2 and revoked_at is null returning id', [
    options.workspaceId,
    options.userId,
  ]);
  return rows.map((row) => row.id);
}

function viewOf(row: ApiTokenRow, currentTokenId: string): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    userId: row.user_id,
    scopes: row.scopes === null ? null : row.scopes.filter(isPermission),
    createdAt: isoOf(row.created_at),
    expiresAt: isoOrNull(row.expires_at),
    lastUsedAt: isoOrNull(row.last_used_at),
    revokedAt: isoOrNull(row.revoked_at),
    current: row.id === currentTokenId,
  };
}

/** Personal API tokens; every query is scoped by the caller's workspace (and, but for an admin's reads, the caller). */
@Injectable()
export class ApiTokensRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** Tokens of the workspace, oldest first: the user's own, or every member's (`userId` undefined). */
  async list(options: { readonly workspaceId: string; readonly userId: string | undefined; readonly currentTokenId: string }): Promise<ApiTokenView[]> {
    const rows = await this.dataSource.query<ApiTokenRow[]>(`select ${COLUMNS} from api_token where workspace_id = $1 and ($2::text is null or user_id = $2) order by created_at, id`, [
      options.workspaceId,
      options.userId ?? null,
    ]);
    return rows.map((row) => viewOf(row, options.currentTokenId));
  }

  /**
   * Revokes (idempotently: the first revocation time stays) a token of the workspace, of `userId`
   * unless undefined (an admin's revocation); its holder, or undefined when there is no such token.
   */
  async revoke(options: { readonly workspaceId: string; readonly tokenId: string; readonly userId: string | undefined }, runner: RawQueryRunner = this.dataSource): Promise<string | undefined> {
    const rows = await returningRows<{ user_id: string }>(
      runner,
      `update api_token set revoked_at = coalesce(revoked_at, now()) where id = $1 and workspace_id = $2 and ($3::text is null or user_id = $3) returning user_id`,
      [options.tokenId, options.workspaceId, options.userId ?? null],
    );
    return rows[0]?.user_id;
  }
}
