import { DEFAULT_BRANCH_TEMPLATE } from '@switchyard/contracts';
import { renderRepositoryBranchName, shortIdOf, slugify } from './repository-branch.name';
import { RepositoryError } from './repository.error';

const TASK_ID = '0b7d3c2e-1f4a-4b5c-9d8e-7f6a5b4c3d2e';
const ISSUE_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const repository = (branchTemplate: string) => ({ name: 'web', branchTemplate });

describe('renderRepositoryBranchName', () => {
  it('Given the default template and an issue task, when rendered, then it names the issue and the task by their last 8 hex digits', () => {
    const branch = renderRepositoryBranchName({
      repository: repository(DEFAULT_BRANCH_TEMPLATE),
      task: { taskId: TASK_ID, source: { kind: 'issue', issueId: ISSUE_ID, trigger: 'assignment', commentId: null } },
      agentName: 'Reviewer',
    });
    expect(branch).toBe('switchyard/issue-9a8b7c6d/5b4c3d2e');
  });

  it('Given chat, autopilot and quick-create tasks, when rendered, then {source} says which', () => {
    const render = (source: Parameters<typeof renderRepositoryBranchName>[0]['task']['source']) =>
      renderRepositoryBranchName({ repository: repository('{source}'), task: { taskId: TASK_ID, source }, agentName: 'a' });
    expect(render({ kind: 'chat', chatSessionId: 'c0ffee00-0000-4000-8000-00000000abcd', chatMessageId: 'm1' })).toBe('chat-0000abcd');
    expect(render({ kind: 'autopilot', autopilotId: 'ap-12345678-ffff', trigger: 'schedule' })).toBe('autopilot-5678ffff');
    expect(render({ kind: 'quick_create' })).toBe('task');
  });

  it('Given {agent}, when rendered, then the agent name is slugified', () => {
    const branch = renderRepositoryBranchName({ repository: repository('bots/{agent}/{task}'), task: { taskId: TASK_ID, source: { kind: 'quick_create' } }, agentName: 'Zoë the Büilder!' });
    expect(branch).toBe('bots/zoe-the-builder/5b4c3d2e');
  });

  it('Given an unknown placeholder, when rendered, then a repo_branch_invalid error names it', () => {
    const render = () => renderRepositoryBranchName({ repository: repository('x/{user}'), task: { taskId: TASK_ID, source: { kind: 'quick_create' } }, agentName: 'a' });
    expect(render).toThrow(RepositoryError);
    expect(render).toThrow(/\{user\}/);
  });
});

describe('shortIdOf and slugify', () => {
  it('falls back when an id has no hex digits and a name has no letters', () => {
    expect(shortIdOf('zzz-qqq')).toBe('zzz-qqq');
    expect(slugify('!!!')).toBe('agent');
    expect(slugify('a'.repeat(60))).toHaveLength(40);
  });
});
