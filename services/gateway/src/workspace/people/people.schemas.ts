import { z } from 'zod';
import { timestampSchema } from '../common/api-schemas';
import { PASSWORD_MAX_LENGTH } from './password.hasher';
import { roleSchema } from '../common/access.schemas';

const emailSchema = z.email('must be an email address').max(320);
const passwordSchema = z.string().min(1).max(PASSWORD_MAX_LENGTH);

export const userViewSchema = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string(),
  hasPassword: z.boolean().describe('False for an account that signs in by link or OIDC only'),
  createdAt: timestampSchema,
});
export type UserView = z.infer<typeof userViewSchema>;

export const membershipViewSchema = z.object({ workspaceId: z.string(), workspaceName: z.string(), role: roleSchema });
export type MembershipView = z.infer<typeof membershipViewSchema>;

export const memberViewSchema = z.object({ userId: z.string(), email: z.string(), displayName: z.string(), role: roleSchema, memberSince: timestampSchema });
export type MemberView = z.infer<typeof memberViewSchema>;
export const memberListSchema = z.object({ members: z.array(memberViewSchema) });

export const signInSchema = z.strictObject({ email: emailSchema, password: passwordSchema });
export const passwordChangeSchema = z.strictObject({ currentPassword: passwordSchema.optional(), newPassword: passwordSchema });
export const passwordResetSchema = z.strictObject({ email: emailSchema, code: z.string().min(1).max(40), newPassword: passwordSchema });

/** Who is signed in, where they belong, and the CSRF token their unsafe requests must carry. */
export const sessionViewSchema = z.object({
  user: userViewSchema,
  memberships: z.array(membershipViewSchema),
  csrfToken: z.string().nullable().describe('Send it as `X-CSRF-Token` on every POST, PATCH, PUT and DELETE of this session (also in the `switchyard_csrf` cookie); null for an API token'),
  expiresAt: timestampSchema.nullable(),
});
export type SessionView = z.infer<typeof sessionViewSchema>;

export const updateMemberSchema = z.strictObject({ role: roleSchema });

export const createInvitationSchema = z.strictObject({
  role: z.enum(['admin', 'member', 'viewer']).default('member'),
  email: emailSchema.optional().describe('Only this email may accept it; any when omitted'),
  expiresInHours: z.number().int().min(1).max(24 * 30).default(72),
});
export const invitationViewSchema = z.object({
  id: z.string(),
  role: roleSchema,
  email: z.string().nullable(),
  createdBy: z.string(),
  createdAt: timestampSchema,
  expiresAt: timestampSchema,
  acceptedAt: timestampSchema.nullable(),
  acceptedBy: z.string().nullable(),
  revokedAt: timestampSchema.nullable(),
});
export type InvitationView = z.infer<typeof invitationViewSchema>;
export const createdInvitationSchema = invitationViewSchema.extend({
  token: z.string().describe('The one-time invitation secret (`syi_...`): shown this once'),
  link: z.string().describe('`<public URL>/invitations/<token>`: whoever opens it accepts with it'),
});
export type CreatedInvitation = z.infer<typeof createdInvitationSchema>;
export const invitationListSchema = z.object({ invitations: z.array(invitationViewSchema) });

export const acceptInvitationSchema = z.strictObject({
  displayName: z.string().trim().min(1).max(100).optional().describe('For a new account'),
  email: emailSchema.optional().describe('For a new account (the invitation’s own email when it names one)'),
  password: passwordSchema.optional().describe('For a new account; a signed-in user accepts without one'),
});
export const acceptedInvitationSchema = z.object({ workspaceId: z.string(), role: roleSchema, user: userViewSchema, csrfToken: z.string().nullable() });
