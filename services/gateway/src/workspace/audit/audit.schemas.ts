import { z } from 'zod';
import { timestampSchema } from '../common/api-schemas';
import { AUDIT_ACTIONS } from './audit.actions';

export const auditQuerySchema = z.strictObject({
  action: z.enum(AUDIT_ACTIONS).optional().describe('Only entries of this action'),
  cursor: z.string().min(1).max(100).optional().describe('`nextCursor` of the previous page'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditEventViewSchema = z.object({
  id: z.string(),
  occurredAt: timestampSchema,
  actor: z.object({ kind: z.string(), id: z.string() }),
  action: z.enum(AUDIT_ACTIONS),
  target: z.object({ kind: z.string(), id: z.string() }),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEventView = z.infer<typeof auditEventViewSchema>;

export const auditPageSchema = z.object({
  events: z.array(auditEventViewSchema),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
});
