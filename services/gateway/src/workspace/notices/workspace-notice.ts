import { z } from 'zod';

export const WORKSPACE_NOTICE_KINDS = ['issue.created', 'issue.updated', 'issue.deleted', 'comment.created', 'chat_message.created', 'chat_session.created', 'chat_session.deleted'] as const;

/**
 * A committed change of the workspace's issues, comments or chats, published on core NATS
 * (`notify.workspace.<workspaceId>`, live only). Ids and kinds only: clients fetch the rows over REST.
 */
export const workspaceNoticeSchema = z.object({
  kind: z.enum(WORKSPACE_NOTICE_KINDS),
  /** The id of the row the kind names (issue, comment, chat message or chat session). */
  id: z.string().min(1).max(256),
  issueId: z.string().min(1).max(256).optional(),
  chatSessionId: z.string().min(1).max(256).optional(),
  at: z.string(),
});
export type WorkspaceNotice = z.infer<typeof workspaceNoticeSchema>;

/** Logical subject of a workspace's notices; the hub listens on `notify.workspace.*`. */
export const workspaceNoticeSubject = (workspaceId: string): string => `notify.workspace.${workspaceId}`;
export const WORKSPACE_NOTICE_FILTER = 'notify.workspace.*';
