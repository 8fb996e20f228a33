import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@switchyard/persistence';
import { hashApiToken } from '../../workspace/tokens/api-token.codec';
import type { ApiTokenCredential, MemberCaller } from '../../workspace/common/caller';
import { isPermission, isRole } from '../../workspace/common/access.matrix';

/** How stale a token's `last_used_at` may be: it says when a token was last used to the minute. */
const LAST_USE_GRANULARITY_SECONDS = 60;

/**
 * Resolves a presented API token to its holder acting in the token's workspace, with the role they
 * hold there now: one query. Revoked, expired and unknown tokens, tokens of a disabled account and
 * of someone no longer a member resolve to nothing.
 */
@Injectable()
export class ApiTokenVerifier {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async verify(token: string | undefined): Promise<(MemberCaller & { readonly credential: ApiTokenCredential }) | undefined> {
    if (!token) return undefined;
    // Last use is recorded at most once a minute: a write on every request made each one commit
    // (a WAL flush) and serialized a client's concurrent requests on the token's row. A statement
    // whose update matches nothing writes nothing, so most requests are a plain read.
    const rows = await this.dataSource.query<Array<{ id: string; workspace_id: string; user_id: string; scopes: string[] | null; role: string }>>(
      `with hit as (
         select t.id, t.workspace_id, t.user_id, t.scopes, m.role, t.last_used_at
           from api_token t
           join workspace_member m on m.workspace_id = t.workspace_id and m.user_id = t.user_id
           join app_user u on u.id = t.user_id and u.disabled_at is null
          where t.token_hash = $1 and t.revoked_at is null and (t.expires_at is null or t.expires_at > now())
       ), touched as (
         update api_token t set last_used_at = now()
           from hit
          where t.id = hit.id and (hit.last_used_at is null or hit.last_used_at < now() - interval '${LAST_USE_GRANULARITY_SECONDS} seconds')
       )
       select id, workspace_id, user_id, scopes, role from hit`,
      [hashApiToken(token)],
    );
    const row = rows[0];
    if (!row || !isRole(row.role)) return undefined;
    return {
      kind: 'member',
      workspaceId: row.workspace_id,
      userId: row.user_id,
      role: row.role,
      credential: { kind: 'api_token', tokenId: row.id, scopes: row.scopes === null ? null : row.scopes.filter(isPermission) },
    };
  }

  /**
   * Which of these token hashes still belong to a usable token (not revoked, not expired, its
   * holder still a member): one query for every open live connection. By hash, not id: a bootstrap
   * token configured afresh keeps its id.
   */
  async activeTokenHashes(tokenHashes: readonly string[]): Promise<Set<string>> {
    if (tokenHashes.length === 0) return new Set();
    const rows = await this.dataSource.query<Array<{ token_hash: string }>>(
      `select t.token_hash from api_token t join workspace_member m on m.workspace_id = t.workspace_id and m.user_id = t.user_id
        where t.token_hash = any($1::text[]) and t.revoked_at is null and (t.expires_at is null or t.expires_at > now())`,
      [[...tokenHashes]],
    );
    return new Set(rows.map((row) => row.token_hash));
  }
}
