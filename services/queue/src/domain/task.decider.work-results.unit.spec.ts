import type { RepositoryWorkResult } from '@switchyard/contracts';
import { ADA, NOW, TASK_ID, WORKTREE_RESULT, commands, events, histories } from './task.fixtures.spec-helper';
import { fold, given } from './task-given.spec-helper';
import { taskEvent } from './task.events';

// What the run left in its repositories travels from the daemon's end report into the ending event
// and the task's state (the gateway reads it from there).

const LOCAL_RESULT: RepositoryWorkResult = {
  name: 'notes',
  checkoutMode: 'local_directory',
  branch: null,
  baseCommit: null,
  headCommit: null,
  filesChanged: 1,
  insertions: 3,
  deletions: 0,
  uncommittedFiles: 1,
};

describe('task decider: work results', () => {
  it('carries the repositories of a complete into task.completed and the state', () => {
    const repositories = [WORKTREE_RESULT, LOCAL_RESULT];
    const task = given(histories.running).when(commands.complete({ repositories })).then([events.completed({ repositories })]);
    expect(task.repositories).toEqual(repositories);
  });

  it('carries the repositories of a fail into task.failed', () => {
    const failure = { reason: 'repo_branch_conflict' as const, message: 'branch exists', repositories: [WORKTREE_RESULT] };
    const task = given(histories.running).when(commands.fail(failure)).then([events.failed(failure)]);
    expect(task.repositories).toEqual([WORKTREE_RESULT]);
  });

  it('keeps what a cancelled attempt left when its own report confirms the cancel', () => {
    const repositories = [WORKTREE_RESULT];
    const task = given(histories.runningCancelRequested).when(commands.complete({ repositories })).then([events.cancelled(1, ADA, repositories)]);
    expect(task).toMatchObject({ status: 'cancelled', repositories });
    given(histories.runningCancelRequested).when(commands.fail({ repositories })).then([events.cancelled(1, ADA, repositories)]);
  });

  it('reports none when the queue ends the attempt itself', () => {
    const task = given(histories.running)
      .when(commands.timeout('lease'))
      .then([events.timedOut('lease'), events.failed({ reason: 'timeout', message: 'Lease not renewed for 30000 ms' })]);
    expect(task.repositories).toEqual([]);
  });

  it('folds an ending stored before repositories were reported as none', () => {
    const storedBefore = taskEvent({
      type: 'task.completed',
      // As the store hands back an event written by an older queue: no `repositories` at all.
      payload: { taskId: TASK_ID, attempt: 1, sessionId: null, output: 'Done.', durationMs: 1, usage: [] } as never,
      occurredAt: NOW,
    });
    expect(fold([...histories.running, storedBefore])).toMatchObject({ status: 'completed', repositories: [] });
  });
});
