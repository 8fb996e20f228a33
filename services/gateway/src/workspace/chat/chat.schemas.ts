import { z } from 'zod';
import { timestampSchema } from '../common/api-schemas';
import { triggeredTaskSchema } from '../triggers/trigger.schemas';

/** A message whose whole body (trimmed) is this starts a new session context and creates no task. */
export const NEW_SESSION_COMMAND = '/new';
/** Chat runs above autopilot (0) and below urgent issues (issue priorities map to 0-4). */
export const CHAT_TASK_PRIORITY = 2;

const noNul = (value: string): boolean => !value.includes('\0');

export const createChatSessionSchema = z.strictObject({
  agentId: z.string().min(1).max(256).describe('An active agent of the workspace'),
  title: z.string().trim().max(200).refine(noNul, 'must not contain NUL').optional(),
});
export type CreateChatSessionInput = z.infer<typeof createChatSessionSchema>;

export const chatSessionListQuerySchema = z.strictObject({
  agentId: z.string().min(1).max(256).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100).describe('At most this many, newest first (1-500, default 100)'),
});
export type ChatSessionListQuery = z.infer<typeof chatSessionListQuerySchema>;

export const chatAttachmentSchema = z.strictObject({
  name: z.string().trim().min(1).max(255).refine(noNul, 'must not contain NUL'),
  url: z.url({ protocol: /^https?$/ }).max(2_000).optional(),
  mediaType: z.string().trim().min(1).max(200).optional(),
});

export const postChatMessageSchema = z.strictObject({
  body: z
    .string()
    .max(100_000)
    .refine((body) => body.trim().length > 0, 'must not be empty')
    .refine(noNul, 'must not contain NUL')
    .describe(`The user's message; exactly \`${NEW_SESSION_COMMAND}\` starts a new session context (no task)`),
  attachments: z.array(chatAttachmentSchema).max(20).optional().describe('Named in the prompt (the files themselves are not uploaded here)'),
});
export type PostChatMessageInput = z.infer<typeof postChatMessageSchema>;

export const chatSessionViewSchema = z.object({
  id: z.string(),
  agentId: z.string(),
  title: z.string(),
  forceFreshSession: z.boolean().describe('A `/new` is pending: the next message’s task starts a fresh CLI session'),
  createdAt: timestampSchema,
});
export type ChatSessionView = z.infer<typeof chatSessionViewSchema>;

export const chatSessionListSchema = z.object({ chatSessions: z.array(chatSessionViewSchema) });

export const chatMessageViewSchema = z.object({
  id: z.string(),
  chatSessionId: z.string(),
  role: z.enum(['user', 'agent']),
  body: z.string(),
  attachments: z.array(chatAttachmentSchema),
  createdAt: timestampSchema,
});
export type ChatMessageView = z.infer<typeof chatMessageViewSchema>;

export const chatMessageChangeSchema = chatMessageViewSchema.extend({
  task: triggeredTaskSchema.nullable().describe('The message’s own task (trigger `chat`); null for `/new`'),
});
export type ChatMessageChange = z.infer<typeof chatMessageChangeSchema>;

export const chatMessageListSchema = z.object({ messages: z.array(chatMessageViewSchema) });
