import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@switchyard/persistence';
import { AuditTrail } from '../audit/audit.trail';
import { ApiError, notFound } from '../common/api-error';
import { actorOf, type MemberCaller } from '../common/caller';
import { revokeTokensOfMember } from '../tokens/api-tokens.repository';
import type { Role } from '../common/access.matrix';
import { InvitationsRepository } from './invitations.repository';
import { MembersRepository } from './members.repository';
import type { InvitationView } from './people.schemas';

/**
 * Who belongs to a workspace and with which role. Owners are special: only an owner makes or unmakes
 * one, and a workspace always keeps at least one. A removed member's API tokens of the workspace are
 * revoked with the membership; every change is in the audit trail.
 */
@Injectable()
export class MembershipService {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly members: MembersRepository,
    private readonly invitations: InvitationsRepository,
    private readonly audit: AuditTrail,
  ) {}

  async changeRole(caller: MemberCaller, options: { readonly userId: string; readonly role: Role }): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const current = await this.members.lockForChange({ workspaceId: caller.workspaceId, userId: options.userId }, manager);
      if (!current) throw notFound('member', options.userId);
      if (current.role === options.role) return;
      if ((current.role === 'owner' || options.role === 'owner') && caller.role !== 'owner') throw ownerRequired();
      if (current.role === 'owner' && current.owners === 1) throw lastOwner();
      await this.members.setRole({ workspaceId: caller.workspaceId, userId: options.userId, role: options.role }, manager);
      await this.audit.record(
        { workspaceId: caller.workspaceId, actor: actorOf(caller), action: 'member.role_changed', target: { kind: 'user', id: options.userId }, details: { from: current.role, to: options.role } },
        manager,
      );
    });
  }

  /** Removes the member and revokes their tokens of this workspace; returns the revoked token ids (for live sockets). */
  async remove(caller: MemberCaller, userId: string): Promise<string[]> {
    return this.dataSource.transaction(async (manager) => {
      const current = await this.members.lockForChange({ workspaceId: caller.workspaceId, userId }, manager);
      if (!current) throw notFound('member', userId);
      if (current.role === 'owner' && caller.role !== 'owner') throw ownerRequired();
      if (current.role === 'owner' && current.owners === 1) throw lastOwner();
      await this.members.remove({ workspaceId: caller.workspaceId, userId }, manager);
      const revoked = await revokeTokensOfMember(manager, { workspaceId: caller.workspaceId, userId });
      await this.audit.record(
        { workspaceId: caller.workspaceId, actor: actorOf(caller), action: 'member.removed', target: { kind: 'user', id: userId }, details: { role: current.role, tokensRevoked: revoked.length } },
        manager,
      );
      return revoked;
    });
  }

  async invite(caller: MemberCaller, options: { readonly role: Exclude<Role, 'owner'>; readonly email: string | undefined; readonly expiresInHours: number }): Promise<{ invitation: InvitationView; token: string }> {
    return this.dataSource.transaction(async (manager) => {
      const created = await this.invitations.create(
        { workspaceId: caller.workspaceId, role: options.role, email: options.email?.trim().toLowerCase() ?? null, createdBy: caller.userId, expiresInHours: options.expiresInHours },
        manager,
      );
      await this.audit.record(
        { workspaceId: caller.workspaceId, actor: actorOf(caller), action: 'member.invited', target: { kind: 'invitation', id: created.invitation.id }, details: { role: options.role, email: created.invitation.email } },
        manager,
      );
      return created;
    });
  }

  async revokeInvitation(caller: MemberCaller, invitationId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.invitations.revoke(caller.workspaceId, invitationId, manager))) throw notFound('open invitation', invitationId);
      await this.audit.record({ workspaceId: caller.workspaceId, actor: actorOf(caller), action: 'invitation.revoked', target: { kind: 'invitation', id: invitationId } }, manager);
    });
  }
}

const ownerRequired = (): ApiError => new ApiError('owner_required', 'only an owner may make someone an owner, change an owner’s role or remove an owner');
const lastOwner = (): ApiError => new ApiError('last_owner', 'the workspace would be left without an owner');
