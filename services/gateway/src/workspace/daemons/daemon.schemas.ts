import { z } from 'zod';
import { timestampSchema } from '../common/api-schemas';

export const createEnrollmentSchema = z.strictObject({});

/** Returned once: only the token's SHA-256 is kept. */
export const createdEnrollmentSchema = z.object({
  id: z.string(),
  workspaceId: z.string(),
  token: z.string().describe('The one-time secret, `sye_...`: give it to one daemon (`npm run daemon -- enroll`)'),
  expiresAt: timestampSchema,
});
export type CreatedEnrollment = z.infer<typeof createdEnrollmentSchema>;

// nkeys public keys: a prefix letter (U user, X curve) and 55 base32 characters.
const userPublicKey = z.string().regex(/^U[A-Z2-7]{55}$/, 'must be an nkeys user public key (U...)');
const curvePublicKey = z.string().regex(/^X[A-Z2-7]{55}$/, 'must be an nkeys curve public key (X...)');

export const enrollDaemonSchema = z.strictObject({
  token: z.string().min(1).max(200),
  name: z.string().trim().min(1).max(100).describe('Shown in lists, e.g. the host name; not an identity'),
  userPublicKey: userPublicKey.describe('The daemon’s NATS user key; its seed never leaves the daemon'),
  curvePublicKey: curvePublicKey.describe('The key task secrets are sealed to for this daemon'),
});
export type EnrollDaemonInput = z.infer<typeof enrollDaemonSchema>;

export const enrolledDaemonSchema = z.object({
  daemonId: z.string().describe('Random, assigned by the server, kept by the daemon'),
  workspaceId: z.string(),
  jwt: z.string().describe('The daemon’s NATS user JWT; with its own seed it makes its `.creds`'),
});
export type EnrolledDaemon = z.infer<typeof enrolledDaemonSchema>;

export const daemonViewSchema = z.object({
  id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  userPublicKey: z.string(),
  enrolledAt: timestampSchema,
  revokedAt: timestampSchema.nullable(),
});
export type DaemonView = z.infer<typeof daemonViewSchema>;
export const daemonListSchema = z.object({ daemons: z.array(daemonViewSchema) });
