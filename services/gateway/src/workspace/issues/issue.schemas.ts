import { z } from 'zod';
import { timestampSchema } from '../common/api-schemas';
import { triggeredTaskSchema } from '../triggers/trigger.schemas';

export const ISSUE_STATUSES = ['backlog', 'todo', 'in_progress', 'in_review', 'done', 'cancelled'] as const;
export const ISSUE_PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;
export type IssuePriority = (typeof ISSUE_PRIORITIES)[number];

/** The queue's priority of an issue's tasks (higher runs first): none 0 ... urgent 4. */
export function taskPriorityOfIssue(priority: IssuePriority): number {
  return ISSUE_PRIORITIES.indexOf(priority);
}

const noNul = (value: string): boolean => !value.includes('\0');
const idSchema = z.string().min(1).max(256);

const issueFields = {
  title: z.string().trim().min(1).max(500).refine(noNul, 'must not contain NUL'),
  description: z.string().max(100_000).refine(noNul, 'must not contain NUL'),
  status: z.enum(ISSUE_STATUSES),
  priority: z.enum(ISSUE_PRIORITIES),
  assigneeAgentId: idSchema.nullable().describe('An active agent of the workspace; assigning triggers a task (trigger `assignment`)'),
  parentIssueId: idSchema.nullable().describe('An issue of the workspace; a child created without `project` inherits its parent’s'),
  project: z.string().trim().min(1).max(200).refine(noNul, 'must not contain NUL').nullable(),
};

export const createIssueSchema = z.strictObject({
  title: issueFields.title,
  description: issueFields.description.optional(),
  status: issueFields.status.optional().describe('Default `todo`'),
  priority: issueFields.priority.optional().describe('Default `none`'),
  assigneeAgentId: issueFields.assigneeAgentId.optional(),
  parentIssueId: issueFields.parentIssueId.optional(),
  project: issueFields.project.optional(),
});
export type CreateIssueInput = z.infer<typeof createIssueSchema>;

export const updateIssueSchema = z
  .strictObject({
    title: issueFields.title.optional(),
    description: issueFields.description.optional(),
    status: issueFields.status.optional(),
    priority: issueFields.priority.optional(),
    assigneeAgentId: issueFields.assigneeAgentId.optional().describe('Another agent triggers a task; the same agent again re-sends a pending one; null unassigns'),
    parentIssueId: issueFields.parentIssueId.optional(),
    project: issueFields.project.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), 'name at least one field to change');
export type UpdateIssueInput = z.infer<typeof updateIssueSchema>;

export const issueListQuerySchema = z.strictObject({
  parentIssueId: idSchema.optional().describe('Only the children of this issue'),
  status: z.enum(ISSUE_STATUSES).optional(),
  assigneeAgentId: idSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100).describe('At most this many, newest first (1-500, default 100)'),
});
export type IssueListQuery = z.infer<typeof issueListQuerySchema>;

export const issueViewSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  status: z.enum(ISSUE_STATUSES),
  priority: z.enum(ISSUE_PRIORITIES),
  assigneeAgentId: z.string().nullable(),
  parentIssueId: z.string().nullable(),
  project: z.string().nullable(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type IssueView = z.infer<typeof issueViewSchema>;

/** A create or update answers with the issue and the task its assignment triggered (if any). */
export const issueChangeSchema = issueViewSchema.extend({
  tasks: z.array(triggeredTaskSchema).describe('The task the assignment triggered; on a repeat, the task it triggered first'),
});
export type IssueChange = z.infer<typeof issueChangeSchema>;

export const issueListSchema = z.object({ issues: z.array(issueViewSchema) });
