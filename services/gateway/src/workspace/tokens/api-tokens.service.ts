import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@switchyard/persistence';
import { AuditTrail } from '../audit/audit.trail';
import { ApiError, notFound } from '../common/api-error';
import { actorOf, callerHolds, type MemberCaller } from '../common/caller';
import { permissionsOf } from '../common/access.matrix';
import { ApiTokensRepository, insertApiToken } from './api-tokens.repository';
import type { ApiTokenView, CreateApiTokenInput, CreatedApiToken } from './api-token.schemas';

/**
 * Personal API tokens: a member makes tokens for themselves, with scopes within their role (never
 * beyond), and revokes their own; an admin (`tokens:manage_all`) sees and revokes everyone's.
 */
@Injectable()
export class ApiTokensService {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly tokens: ApiTokensRepository,
    private readonly audit: AuditTrail,
  ) {}

  create(caller: MemberCaller, input: CreateApiTokenInput): Promise<CreatedApiToken> {
    const held = permissionsOf(caller.role).filter((permission) => callerHolds(caller, permission));
    const beyond = (input.scopes ?? []).filter((scope) => !held.includes(scope));
    if (beyond.length > 0) throw new ApiError('scope_exceeds_role', `a token may carry only what you hold (${caller.role}${caller.credential.kind === 'api_token' && caller.credential.scopes ? ', within this token’s scopes' : ''})`, { beyond });
    // A token made with a scoped token is bounded by that token's scopes too.
    const scopes = input.scopes ?? (caller.credential.kind === 'api_token' ? caller.credential.scopes ?? undefined : undefined);
    return this.dataSource.transaction(async (manager) => {
      const created = await insertApiToken(manager, { workspaceId: caller.workspaceId, userId: caller.userId, name: input.name, scopes, expiresInDays: input.expiresInDays });
      await this.audit.record(
        { workspaceId: caller.workspaceId, actor: actorOf(caller), action: 'token.created', target: { kind: 'api_token', id: created.id }, details: { name: created.name, scopes: created.scopes, expiresAt: created.expiresAt } },
        manager,
      );
      return created;
    });
  }

  list(caller: MemberCaller, options: { readonly all: boolean }): Promise<ApiTokenView[]> {
    if (options.all && !callerHolds(caller, 'tokens:manage_all')) throw new ApiError('forbidden_role', 'listing every member’s tokens needs tokens:manage_all (admin)', { permission: 'tokens:manage_all', lowestRole: 'admin', role: caller.role });
    return this.tokens.list({ workspaceId: caller.workspaceId, userId: options.all ? undefined : caller.userId, currentTokenId: caller.credential.kind === 'api_token' ? caller.credential.tokenId : '' });
  }

  /** Revokes the caller's own token, or anyone's for an admin; 404 for a token the caller may not see. */
  async revoke(caller: MemberCaller, tokenId: string): Promise<void> {
    const userId = callerHolds(caller, 'tokens:manage_all') ? undefined : caller.userId;
    await this.dataSource.transaction(async (manager) => {
      const holder = await this.tokens.revoke({ workspaceId: caller.workspaceId, tokenId, userId }, manager);
      if (holder === undefined) throw notFound('API token', tokenId);
      await this.audit.record({ workspaceId: caller.workspaceId, actor: actorOf(caller), action: 'token.revoked', target: { kind: 'api_token', id: tokenId }, details: { holder } }, manager);
    });
  }
}
