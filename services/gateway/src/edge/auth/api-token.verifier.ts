import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@switchyard/persistence';
import { returningRows } from '../../workspace/database/returning-rows';
import { hashApiToken } from '../../workspace/tokens/api-token.codec';
import type { ApiTokenCaller } from '../../workspace/common/caller';

/** Resolves a presented API token to its caller; revoked and unknown tokens resolve to nothing. */
@Injectable()
export class ApiTokenVerifier {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async verify(token: string | undefined): Promise<ApiTokenCaller | undefined> {
    if (!token) return undefined;
    // An UPDATE through TypeORM answers [rows, count]; returningRows yields the rows themselves.
    const rows = await returningRows<{ id: string; workspace_id: string }>(
      this.dataSource,
      `update api_token set last_used_at = now()
        where token_hash = $1 and revoked_at is null
        returning id, workspace_id`,
      [hashApiToken(token)],
    );
    const row = rows[0];
    return row ? { kind: 'api_token', workspaceId: row.workspace_id, tokenId: row.id } : undefined;
  }

  /**
   * Which of these token hashes still belong to a token that is not revoked: one query for every
   * open live connection. By hash, not id: a bootstrap token configured afresh keeps its id.
   */
  async activeTokenHashes(tokenHashes: readonly string[]): Promise<Set<string>> {
    if (tokenHashes.length === 0) return new Set();
    const rows = await this.dataSource.query<Array<{ token_hash: string }>>(`select token_hash from api_token where token_hash = any($1::text[]) and revoked_at is null`, [[...tokenHashes]]);
    return new Set(rows.map((row) => row.token_hash));
  }
}
