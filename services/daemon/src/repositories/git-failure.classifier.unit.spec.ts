import { RECORDED_GIT_STDERR } from './__fixtures__/git-stderr.samples';
import { classifyGitFailure, gitFailureSummary, type GitFailureKind } from './git-failure.classifier';

const EXPECTED: Record<keyof typeof RECORDED_GIT_STDERR, GitFailureKind> = {
  missingFileUrl: 'unavailable',
  missingLocalPath: 'unavailable',
  connectionRefused: 'unavailable',
  unknownHost: 'unavailable',
  noCredentialPromptDisabled: 'auth_failed',
  wrongCredential: 'auth_failed',
  forbidden: 'auth_failed',
  notFoundOverHttp: 'unavailable',
  serverError: 'unavailable',
  askPassGaveNothing: 'auth_failed',
  cloneDiskFull: 'disk_full',
  fetchDiskFull: 'disk_full',
  worktreeCheckoutDiskFull: 'write_failed',
  branchExists: 'branch_exists',
  branchCheckedOutElsewhere: 'branch_checked_out',
  worktreePathExists: 'path_exists',
  missingRemoteRef: 'unavailable',
};

describe('classifyGitFailure', () => {
  it.each(Object.entries(EXPECTED))('classifies recorded stderr %s as %s', (sample, kind) => {
    expect(classifyGitFailure(RECORDED_GIT_STDERR[sample as keyof typeof RECORDED_GIT_STDERR])).toBe(kind);
  });

  it('calls an ssh key refusal an authentication failure, not a missing repository', () => {
    const stderr = 'git@example.com: Permission denied (publickey).\nfatal: Could not read from remote repository.\n';
    expect(classifyGitFailure(stderr)).toBe('auth_failed');
  });

  it('leaves wording it does not know as unknown', () => {
    expect(classifyGitFailure('fatal: something new and strange\n')).toBe('unknown');
    expect(classifyGitFailure('')).toBe('unknown');
  });
});

describe('gitFailureSummary', () => {
  it("quotes git's first fatal line without the prefix", () => {
    expect(gitFailureSummary(RECORDED_GIT_STDERR.missingFileUrl)).toBe("'/tmp/gs/nope.git' does not appear to be a git repository");
    expect(gitFailureSummary(RECORDED_GIT_STDERR.wrongCredential)).toBe("Authentication failed for 'http://127.0.0.1:41147/r.git/'");
  });

  it('falls back to the last error line, then to a fixed sentence', () => {
    expect(gitFailureSummary('error: unable to write file a\nerror: unable to write file b\n')).toBe('unable to write file b');
    expect(gitFailureSummary('')).toBe('git failed without a message');
  });
});
