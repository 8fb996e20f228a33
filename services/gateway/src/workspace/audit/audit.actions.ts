/** What the audit trail records: changes to who may do what, and to the workspace's secrets and machines. */
export const AUDIT_ACTIONS = [
  'workspace.created',
  'member.invited',
  'invitation.revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'token.created',
  'token.revoked',
  'secret.created',
  'secret.updated',
  'secret.deleted',
  'daemon.enrollment_created',
  'daemon.enrolled',
  'daemon.revoked',
  'user.signed_in',
  'user.identity_linked',
  'user.account_created',
  'user.password_changed',
  'user.password_reset',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
