import { tmpdir } from 'node:os';
import { RECORDED_GIT_STDERR } from './__fixtures__/git-stderr.samples';
import { GitCommandFailure } from './git.runner';
import { repositoryErrorFromGit, type RepositoryOperation } from './repository-failure.mapper';
import { RepositoryError } from './repository.error';

const repository = { name: 'web', url: 'https://bot:hunter2-token@git.example.com/team/web.git', localPath: null };
const fromStderr = (stderr: string, operation: RepositoryOperation) =>
  repositoryErrorFromGit({ error: new GitCommandFailure('clone', stderr, 128), repository, operation, writingUnder: tmpdir() });

describe('repositoryErrorFromGit', () => {
  it('Given recorded git failures, when mapped, then each gets its typed code and a message naming the repository without userinfo', async () => {
    const cases: [keyof typeof RECORDED_GIT_STDERR, RepositoryOperation, string][] = [
      ['wrongCredential', 'fetch', 'repo_auth_failed'],
      ['connectionRefused', 'clone', 'repo_unavailable'],
      ['cloneDiskFull', 'clone', 'disk_full'],
      ['branchCheckedOutElsewhere', 'worktree', 'repo_branch_conflict'],
    ];
    for (const [sample, operation, code] of cases) {
      const error = await fromStderr(RECORDED_GIT_STDERR[sample], operation);
      expect(error).toBeInstanceOf(RepositoryError);
      expect(error.code).toBe(code);
      expect(error.message.startsWith('Repository web (https://git.example.com/team/web.git): ')).toBe(true);
      expect(error.message).not.toContain('hunter2');
    }
  });

  it('Given a write failure on a disk with room, when mapped, then it is not called a full disk', async () => {
    await expect(fromStderr(RECORDED_GIT_STDERR.worktreeCheckoutDiskFull, 'worktree')).resolves.toMatchObject({ code: 'repo_branch_conflict' });
  });

  it('Given wording git never used before, when mapped, then the operation decides the code', async () => {
    await expect(fromStderr('fatal: brand new failure\n', 'fetch')).resolves.toMatchObject({ code: 'repo_unavailable', message: expect.stringMatching(/fetching it failed: brand new failure$/) });
    await expect(fromStderr('fatal: brand new failure\n', 'worktree')).resolves.toMatchObject({ code: 'repo_branch_conflict' });
  });

  it('Given ENOSPC from our own file writes, when mapped, then it is disk_full; any other error is rethrown', async () => {
    const enospc = Object.assign(new Error('write failed'), { code: 'ENOSPC' });
    await expect(repositoryErrorFromGit({ error: enospc, repository, operation: 'clone', writingUnder: tmpdir() })).resolves.toMatchObject({ code: 'disk_full' });
    const other = new TypeError('bug');
    await expect(repositoryErrorFromGit({ error: other, repository, operation: 'clone', writingUnder: tmpdir() })).rejects.toBe(other);
  });
});
