import type { IssueView } from '../issues/issue.schemas';

type IssueStatus = IssueView['status'];

/**
 * A run that starts puts the issue in progress from a waiting status, or from `in_review` (someone
 * asked the agent again). `done` and `cancelled` are a person's decision and stay.
 */
const STARTS_FROM: ReadonlySet<IssueStatus> = new Set<IssueStatus>(['backlog', 'todo', 'in_review']);

/** A completed run asks for review of work that was waiting or in progress; `done` and `cancelled` stay. */
const REVIEWED_FROM: ReadonlySet<IssueStatus> = new Set<IssueStatus>(['backlog', 'todo', 'in_progress']);

/** The status an issue moves to when one of its tasks starts; undefined when it stays. */
export function statusAfterStart(current: IssueStatus): IssueStatus | undefined {
  return STARTS_FROM.has(current) ? 'in_progress' : undefined;
}

/**
 * The status an issue moves to when one of its tasks completes; undefined when it stays. While
 * another task of the issue is unfinished (a second agent, a retry) the work is not ready for review.
 */
export function statusAfterCompletion(current: IssueStatus, options: { readonly otherTasksUnfinished: boolean }): IssueStatus | undefined {
  if (options.otherTasksUnfinished) return undefined;
  return REVIEWED_FROM.has(current) ? 'in_review' : undefined;
}
