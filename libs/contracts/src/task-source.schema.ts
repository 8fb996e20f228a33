import { z } from 'zod';
import { identifierSchema } from './subject-segment';

/** Where a task came from; also decides serialization (one active task per agent+issue or chat session). */
export const TASK_SOURCE_KINDS = ['issue', 'chat', 'autopilot', 'quick_create'] as const;
export type TaskSourceKind = (typeof TASK_SOURCE_KINDS)[number];

export const ISSUE_TASK_TRIGGERS = ['assignment', 'mention', 'rerun'] as const;
export const AUTOPILOT_TASK_TRIGGERS = ['schedule', 'webhook', 'manual'] as const;

export interface IssueTaskSource {
  kind: 'issue';
  issueId: string;
  trigger: (typeof ISSUE_TASK_TRIGGERS)[number];
  commentId: string | null;
}
export const issueTaskSourceSchema = z.object({
  kind: z.literal('issue'),
  issueId: identifierSchema,
  trigger: z.enum(ISSUE_TASK_TRIGGERS),
  commentId: identifierSchema.nullable(),
});

/** One task per chat message, never merged into a running one. */
export interface ChatTaskSource {
  kind: 'chat';
  chatSessionId: string;
  chatMessageId: string;
}
export const chatTaskSourceSchema = z.object({
  kind: z.literal('chat'),
  chatSessionId: identifierSchema,
  chatMessageId: identifierSchema,
});

export interface AutopilotTaskSource {
  kind: 'autopilot';
  autopilotId: string;
  trigger: (typeof AUTOPILOT_TASK_TRIGGERS)[number];
}
export const autopilotTaskSourceSchema = z.object({
  kind: z.literal('autopilot'),
  autopilotId: identifierSchema,
  trigger: z.enum(AUTOPILOT_TASK_TRIGGERS),
});

export interface QuickCreateTaskSource {
  kind: 'quick_create';
}
export const quickCreateTaskSourceSchema = z.object({
  kind: z.literal('quick_create'),
});

export type TaskSource = IssueTaskSource | ChatTaskSource | AutopilotTaskSource | QuickCreateTaskSource;
export const taskSourceSchema = z.discriminatedUnion('kind', [
  issueTaskSourceSchema,
  chatTaskSourceSchema,
  autopilotTaskSourceSchema,
  quickCreateTaskSourceSchema,
]);

/** The sources whose tasks continue a conversation (design §7); quick create and autopilot runs never resume. */
export type ConversationTaskSource = IssueTaskSource | ChatTaskSource;

/** Whether a task of this source may continue an earlier session: the one rule, for the index and the daemon alike. */
export function continuesConversation(source: TaskSource): source is ConversationTaskSource {
  return source.kind === 'issue' || source.kind === 'chat';
}
