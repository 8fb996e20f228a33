import { ISSUE_STATUSES } from '../issues/issue.schemas';
import { statusAfterCompletion, statusAfterStart } from './issue-status.rules';

describe('issue status when its task starts', () => {
  it.each([
    ['backlog', 'in_progress'],
    ['todo', 'in_progress'],
    ['in_review', 'in_progress'],
    ['in_progress', undefined],
    ['done', undefined],
    ['cancelled', undefined],
  ] as const)('given an issue %s, when a task starts, then it becomes %s', (current, expected) => {
    expect(statusAfterStart(current)).toBe(expected);
  });
});

describe('issue status when its task completes', () => {
  it.each([
    ['backlog', 'in_review'],
    ['todo', 'in_review'],
    ['in_progress', 'in_review'],
    ['in_review', undefined],
    ['done', undefined],
    ['cancelled', undefined],
  ] as const)('given an issue %s and no other unfinished task, when a task completes, then it becomes %s', (current, expected) => {
    expect(statusAfterCompletion(current, { otherTasksUnfinished: false })).toBe(expected);
  });

  it('given another unfinished task of the issue, when one completes, then no status changes', () => {
    for (const current of ISSUE_STATUSES) expect(statusAfterCompletion(current, { otherTasksUnfinished: true })).toBeUndefined();
  });
});
