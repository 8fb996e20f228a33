import type { Role } from './api.types';
import { api } from './http-client';

// Members, invitations and personal API tokens (services/gateway/src/workspace/people/people.schemas.ts,
// workspace/tokens/api-token.schemas.ts; docs/architecture/people.md).

export const ROLES: readonly Role[] = ['viewer', 'member', 'admin', 'owner'];
/** Admins may not invite owners: an invitation names one of these. */
export const INVITATION_ROLES = ['admin', 'member', 'viewer'] as const;
export type InvitationRole = (typeof INVITATION_ROLES)[number];

/**
 * The role matrix's permissions with their lowest role (workspace/people/access.matrix.ts): a
 * token's scopes are some of them, within its holder's role.
 */
export const PERMISSIONS: ReadonlyArray<{ readonly name: string; readonly lowestRole: Role; readonly what: string }> = [
  { name: 'workspace:read', lowestRole: 'viewer', what: 'read the workspace and its settings' },
  { name: 'workspace:manage', lowestRole: 'admin', what: 'change the workspace settings' },
  { name: 'members:read', lowestRole: 'viewer', what: 'list members and their roles' },
  { name: 'members:manage', lowestRole: 'admin', what: 'invite people, change roles, remove members' },
  { name: 'agents:read', lowestRole: 'viewer', what: 'read agents' },
  { name: 'agents:manage', lowestRole: 'admin', what: 'create, change and archive agents' },
  { name: 'skills:read', lowestRole: 'viewer', what: 'read skills' },
  { name: 'skills:manage', lowestRole: 'admin', what: 'create, change and delete skills' },
  { name: 'secrets:read', lowestRole: 'admin', what: 'list workspace secrets' },
  { name: 'secrets:manage', lowestRole: 'admin', what: 'create, change and delete workspace secrets' },
  { name: 'projects:read', lowestRole: 'viewer', what: 'read projects and their repositories' },
  { name: 'projects:manage', lowestRole: 'admin', what: 'create, change and delete projects and repositories' },
  { name: 'runtimes:read', lowestRole: 'viewer', what: 'read runtimes and protocol families' },
  { name: 'runtime_profiles:read', lowestRole: 'member', what: 'read runtime profiles' },
  { name: 'runtime_profiles:manage', lowestRole: 'admin', what: 'create, change and delete runtime profiles' },
  { name: 'daemons:read', lowestRole: 'member', what: 'list daemons' },
  { name: 'daemons:manage', lowestRole: 'admin', what: 'issue enrollment tokens and revoke daemons' },
  { name: 'autopilots:read', lowestRole: 'viewer', what: 'read autopilots and their history' },
  { name: 'autopilots:run', lowestRole: 'member', what: 'run an autopilot by hand' },
  { name: 'autopilots:manage', lowestRole: 'admin', what: 'create, change and delete autopilots' },
  { name: 'issues:read', lowestRole: 'viewer', what: 'read issues and comments' },
  { name: 'issues:write', lowestRole: 'member', what: 'create, change and delete issues' },
  { name: 'comments:write', lowestRole: 'member', what: 'comment on issues' },
  { name: 'chat:read', lowestRole: 'viewer', what: 'read chat sessions' },
  { name: 'chat:write', lowestRole: 'member', what: 'start, message and delete chat sessions' },
  { name: 'tasks:read', lowestRole: 'viewer', what: 'read tasks, their timelines and usage' },
  { name: 'tasks:run', lowestRole: 'member', what: 'create quick tasks and rerun tasks' },
  { name: 'tasks:cancel', lowestRole: 'member', what: 'cancel tasks' },
  { name: 'tokens:manage', lowestRole: 'viewer', what: 'create, list and revoke one’s own API tokens' },
  { name: 'tokens:manage_all', lowestRole: 'admin', what: 'list and revoke every member’s API tokens' },
  { name: 'audit:read', lowestRole: 'admin', what: 'read the audit trail' },
];

export interface Member {
  readonly userId: string;
  readonly email: string;
  readonly displayName: string;
  readonly role: Role;
  readonly memberSince: string;
}

export interface Invitation {
  readonly id: string;
  readonly role: Role;
  readonly email: string | null;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly acceptedAt: string | null;
  readonly acceptedBy: string | null;
  readonly revokedAt: string | null;
}

/** Returned once: the link holds the invitation's secret. */
export interface CreatedInvitation extends Invitation {
  readonly token: string;
  readonly link: string;
}

export interface ApiToken {
  readonly id: string;
  readonly name: string;
  readonly userId: string;
  /** null: all its holder's role allows. */
  readonly scopes: readonly string[] | null;
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly lastUsedAt: string | null;
  readonly revokedAt: string | null;
  /** The token this request was made with (never, for a browser session). */
  readonly current?: boolean;
}

/** Returned once: only the token's hash is kept. */
export interface CreatedApiToken extends ApiToken {
  readonly token: string;
}

export const memberKeys = {
  members: ['members'] as const,
  invitations: ['invitations'] as const,
  tokens: ['tokens', 'mine'] as const,
};

export async function listMembers(): Promise<Member[]> {
  return (await api.get<{ members: Member[] }>('/api/members')).members;
}

export function changeMemberRole(userId: string, role: Role): Promise<void> {
  return api.patch(`/api/members/${encodeURIComponent(userId)}`, { role });
}

export function removeMember(userId: string): Promise<void> {
  return api.delete(`/api/members/${encodeURIComponent(userId)}`);
}

export async function listInvitations(): Promise<Invitation[]> {
  return (await api.get<{ invitations: Invitation[] }>('/api/invitations')).invitations;
}

export function createInvitation(input: { readonly role: InvitationRole; readonly email?: string; readonly expiresInHours?: number }): Promise<CreatedInvitation> {
  return api.post<CreatedInvitation>('/api/invitations', input);
}

export function revokeInvitation(invitationId: string): Promise<void> {
  return api.delete(`/api/invitations/${encodeURIComponent(invitationId)}`);
}

export async function listMyTokens(): Promise<ApiToken[]> {
  return (await api.get<{ tokens: ApiToken[] }>('/api/tokens')).tokens;
}

export function createToken(input: { readonly name: string; readonly scopes?: string[]; readonly expiresInDays?: number }): Promise<CreatedApiToken> {
  return api.post<CreatedApiToken>('/api/tokens', input);
}

export function revokeToken(tokenId: string): Promise<void> {
  return api.delete(`/api/tokens/${encodeURIComponent(tokenId)}`);
}

/** The permissions a member of this role may give a token. */
export function permissionsWithin(role: Role): typeof PERMISSIONS {
  return PERMISSIONS.filter((permission) => ROLES.indexOf(role) >= ROLES.indexOf(permission.lowestRole));
}

/** An invitation's state as a word: pending until accepted, revoked or past its expiry. */
export function invitationState(invitation: Invitation, now: number = Date.now()): 'accepted' | 'revoked' | 'expired' | 'pending' {
  if (invitation.acceptedAt) return 'accepted';
  if (invitation.revokedAt) return 'revoked';
  return Date.parse(invitation.expiresAt) <= now ? 'expired' : 'pending';
}
