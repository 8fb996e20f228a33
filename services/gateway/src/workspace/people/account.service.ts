import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG } from '../../gateway.injection-keys';
import { AuditTrail } from '../audit/audit.trail';
import { ApiError } from '../common/api-error';
import { InvitationsRepository } from './invitations.repository';
import { MembersRepository } from './members.repository';
import { OneTimeCodesRepository } from './one-time-codes.repository';
import type { MembershipView, UserView } from './people.schemas';
import { SessionsRepository, type OpenedSession } from './sessions.repository';
import { UsersRepository, normalizeEmail } from './users.repository';

/** A person's own account: sessions, password, sign-in links, invitations they accept. */
@Injectable()
export class AccountService {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly users: UsersRepository,
    private readonly members: MembersRepository,
    private readonly sessions: SessionsRepository,
    private readonly codes: OneTimeCodesRepository,
    private readonly invitations: InvitationsRepository,
    private readonly audit: AuditTrail,
  ) {}

  async openSession(user: UserView, how: 'password' | 'sign_in_link' | 'invitation' | 'oidc' | 'password_reset'): Promise<OpenedSession> {
    const session = await this.sessions.open(user.id, this.config.GATEWAY_SESSION_TTL_MS);
    await this.audit.record({ workspaceId: null, actor: { kind: 'user', id: user.id }, action: 'user.signed_in', target: { kind: 'user', id: user.id }, details: { how } });
    return session;
  }

  async endSession(sessionId: string): Promise<void> {
    await this.sessions.revoke(sessionId);
  }

  async whoIs(userId: string): Promise<{ user: UserView; memberships: MembershipView[] }> {
    const user = await this.users.find(userId);
    if (!user) throw new ApiError('not_found', 'no such account');
    return { user, memberships: await this.members.membershipsOf(userId) };
  }

  /** A new password; the current one is required when there is one. Every other session of the person ends. */
  async changePassword(options: { readonly userId: string; readonly currentPassword: string | undefined; readonly newPassword: string; readonly keepSessionId: string | undefined }): Promise<void> {
    const user = await this.users.find(options.userId);
    if (!user) throw new ApiError('not_found', 'no such account');
    if (user.hasPassword && (options.currentPassword === undefined || !(await this.users.passwordIs(user.id, options.currentPassword)))) {
      throw new ApiError('sign_in_failed', 'the current password is not right');
    }
    await this.users.setPassword(user.id, options.newPassword);
    await this.sessions.revokeAllOf(user.id, options.keepSessionId);
    await this.audit.record({ workspaceId: null, actor: { kind: 'user', id: user.id }, action: 'user.password_changed', target: { kind: 'user', id: user.id } });
  }

  /** With a code an admin printed: a new password, every session ended, and a fresh one opened. Undefined when the code does not hold. */
  async resetPassword(options: { readonly email: string; readonly code: string; readonly newPassword: string }): Promise<{ user: UserView; session: OpenedSession } | undefined> {
    const user = await this.users.findByEmail(options.email);
    if (!user) return undefined;
    // Checked before the code is spent, so a weak password does not waste it.
    if (!(await this.codes.consume({ purpose: 'password_reset', code: options.code, userId: user.id }))) return undefined;
    await this.users.setPassword(user.id, options.newPassword);
    await this.sessions.revokeAllOf(user.id);
    await this.audit.record({ workspaceId: null, actor: { kind: 'user', id: user.id }, action: 'user.password_reset', target: { kind: 'user', id: user.id } });
    return { user: (await this.users.find(user.id))!, session: await this.openSession(user, 'password_reset') };
  }

  /** A sign-in link's account, its link spent; undefined when the link does not hold. */
  async useSignInLink(code: string): Promise<{ user: UserView; session: OpenedSession } | undefined> {
    const userId = await this.codes.consume({ purpose: 'sign_in', code });
    const user = userId === undefined ? undefined : await this.users.find(userId);
    if (!user) return undefined;
    return { user, session: await this.openSession(user, 'sign_in_link') };
  }

  /**
   * Accepts an invitation: a signed-in person joins with it; anyone else gets an account (email,
   * name, password) and a session. An invitation naming an email is for that email only.
   * `one_time_code_invalid` when it is unknown, used, revoked or expired.
   */
  async acceptInvitation(options: {
    readonly token: string;
    readonly signedInUserId: string | undefined;
    readonly newAccount: { readonly email?: string | undefined; readonly displayName?: string | undefined; readonly password?: string | undefined };
  }): Promise<{ workspaceId: string; role: MembershipView['role']; user: UserView; session: OpenedSession | undefined }> {
    const open = await this.invitations.peek(options.token);
    if (!open) throw invalidInvitation();
    const existing = options.signedInUserId === undefined ? undefined : await this.users.find(options.signedInUserId);
    if (existing && open.email !== null && open.email !== existing.email) throw new ApiError('one_time_code_invalid', `this invitation is for ${open.email}`);
    const accepted = await this.dataSource.transaction(async (manager) => {
      const user = existing ?? (await this.users.create(this.newAccountOf(open.email, options.newAccount), manager));
      const taken = await this.invitations.take(options.token, user.id, manager);
      if (!taken) throw invalidInvitation();
      await this.members.add({ workspaceId: taken.workspaceId, userId: user.id, role: taken.role }, manager);
      const role = (await this.members.roleOf(taken.workspaceId, user.id)) ?? taken.role;
      await this.audit.record(
        { workspaceId: taken.workspaceId, actor: { kind: 'user', id: user.id }, action: 'member.joined', target: { kind: 'user', id: user.id }, details: { role, invitationId: taken.id, email: user.email } },
        manager,
      );
      return { workspaceId: taken.workspaceId, role, user };
    });
    return { ...accepted, session: existing ? undefined : await this.openSession(accepted.user, 'invitation') };
  }

  private newAccountOf(invitedEmail: string | null, input: { readonly email?: string | undefined; readonly displayName?: string | undefined; readonly password?: string | undefined }) {
    const email = invitedEmail ?? (input.email === undefined ? undefined : normalizeEmail(input.email));
    if (email === undefined || input.password === undefined) {
      throw new ApiError('validation_failed', 'sign in first, or give email, password and displayName for a new account', { missing: [email === undefined ? 'email' : undefined, input.password === undefined ? 'password' : undefined].filter(Boolean) });
    }
    if (input.email !== undefined && invitedEmail !== null && normalizeEmail(input.email) !== invitedEmail) throw new ApiError('one_time_code_invalid', `this invitation is for ${invitedEmail}`);
    return { email, displayName: input.displayName ?? email.split('@')[0]!, password: input.password };
  }
}

function invalidInvitation(): ApiError {
  return new ApiError('one_time_code_invalid', 'the invitation is unknown, expired, revoked or already used');
}
