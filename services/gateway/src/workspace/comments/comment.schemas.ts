import { z } from 'zod';
import { actorSchema } from '@switchyard/contracts';
import { timestampSchema } from '../common/api-schemas';
import { triggeredTaskSchema } from '../triggers/trigger.schemas';

export const createCommentSchema = z.strictObject({
  body: z
    .string()
    .max(100_000)
    .refine((body) => body.trim().length > 0, 'must not be empty')
    .refine((body) => !body.includes('\0'), 'must not contain NUL')
    .describe('Markdown; `@<agent name>` mentions an active agent of the workspace'),
  mentionAgentIds: z
    .array(z.string().min(1).max(256))
    .max(20)
    .refine((ids) => new Set(ids).size === ids.length, 'ids must be unique')
    .optional()
    .describe('Agents to mention besides the `@name`s in the body'),
});
export type CreateCommentInput = z.infer<typeof createCommentSchema>;

export const commentViewSchema = z.object({
  id: z.string(),
  issueId: z.string(),
  author: actorSchema,
  body: z.string(),
  mentionedAgentIds: z.array(z.string()),
  createdAt: timestampSchema,
});
export type CommentView = z.infer<typeof commentViewSchema>;

export const commentChangeSchema = commentViewSchema.extend({
  tasks: z.array(triggeredTaskSchema).describe('One task per mentioned agent (trigger `mention`); on a repeat, the tasks created first'),
});
export type CommentChange = z.infer<typeof commentChangeSchema>;

export const commentListSchema = z.object({ comments: z.array(commentViewSchema) });
