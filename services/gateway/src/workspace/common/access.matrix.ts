/**
 * The role matrix: who may do what in a workspace. Every route names one permission
 * (`@Requires`); a member holds it when their role is at least the permission's lowest role. This
 * table is the one source: the guard reads it, `docs/architecture/people.md` shows it (a test keeps
 * the two equal), and API tokens carry a subset of it as their scopes.
 */
export const ROLES = ['viewer', 'member', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = {
  'workspace:read': { lowestRole: 'viewer', what: 'read the workspace and its settings' },
  'workspace:manage': { lowestRole: 'admin', what: 'change the workspace settings' },
  'members:read': { lowestRole: 'viewer', what: 'list members and their roles' },
  'members:manage': { lowestRole: 'admin', what: 'invite people, change roles (owner only to or from owner), remove members' },
  'agents:read': { lowestRole: 'viewer', what: 'read agents (env values are never shown)' },
  'agents:manage': { lowestRole: 'admin', what: 'create, change and archive agents' },
  'skills:read': { lowestRole: 'viewer', what: 'read skills' },
  'skills:manage': { lowestRole: 'admin', what: 'create, change and delete skills' },
  'secrets:read': { lowestRole: 'admin', what: 'list workspace secrets (names; values are write-only)' },
  'secrets:manage': { lowestRole: 'admin', what: 'create, change and delete workspace secrets' },
  'projects:read': { lowestRole: 'viewer', what: 'read projects and their repositories' },
  'projects:manage': { lowestRole: 'admin', what: 'create, change and delete projects and repositories' },
  'runtimes:read': { lowestRole: 'viewer', what: 'read runtimes and protocol families' },
  'runtime_profiles:read': { lowestRole: 'member', what: 'read runtime profiles' },
  'runtime_profiles:manage': { lowestRole: 'admin', what: 'create, change and delete runtime profiles' },
  'daemons:read': { lowestRole: 'member', what: 'list daemons' },
  'daemons:manage': { lowestRole: 'admin', what: 'issue enrollment tokens and revoke daemons' },
  'autopilots:read': { lowestRole: 'viewer', what: 'read autopilots and their history' },
  'autopilots:run': { lowestRole: 'member', what: 'run an autopilot by hand' },
  'autopilots:manage': { lowestRole: 'admin', what: 'create, change and delete autopilots, rotate webhook secrets' },
  'issues:read': { lowestRole: 'viewer', what: 'read issues and comments' },
  'issues:write': { lowestRole: 'member', what: 'create, change and delete issues' },
  'comments:write': { lowestRole: 'member', what: 'comment on issues' },
  'chat:read': { lowestRole: 'viewer', what: 'read chat sessions' },
  'chat:write': { lowestRole: 'member', what: 'start, message and delete chat sessions' },
  'tasks:read': { lowestRole: 'viewer', what: 'read tasks, their timelines and usage' },
  'tasks:run': { lowestRole: 'member', what: 'create quick tasks and rerun tasks' },
  'tasks:cancel': { lowestRole: 'member', what: 'cancel tasks' },
  'tokens:manage': { lowestRole: 'viewer', what: 'create, list and revoke one’s own API tokens' },
  'tokens:manage_all': { lowestRole: 'admin', what: 'list and revoke every member’s API tokens' },
  'audit:read': { lowestRole: 'admin', what: 'read the audit trail' },
} as const satisfies Record<string, { readonly lowestRole: Role; readonly what: string }>;

export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

const rank = (role: Role): number => ROLES.indexOf(role);

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && Object.hasOwn(PERMISSIONS, value);
}

/** Whether the role is at least `than`. */
export function roleAtLeast(role: Role, than: Role): boolean {
  return rank(role) >= rank(than);
}

/** Whether a member of this role holds the permission. */
export function roleGrants(role: Role, permission: Permission): boolean {
  return roleAtLeast(role, PERMISSIONS[permission].lowestRole);
}

/** Every permission the role holds: the most a token of such a member may carry. */
export function permissionsOf(role: Role): Permission[] {
  return PERMISSION_NAMES.filter((permission) => roleGrants(role, permission));
}

/** The role just below (for tests and messages); undefined for viewer. */
export function roleBelow(role: Role): Role | undefined {
  return ROLES[rank(role) - 1];
}
