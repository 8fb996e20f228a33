import { DEFAULT_BRANCH_TEMPLATE } from '@switchyard/contracts';
import { branchNameProblem, branchTemplateProblems, localPathProblem, repositorySettingsProblems, repositoryUrlProblem, type RepositorySettings } from './repository-settings.rules';

const worktree = (overrides: Partial<RepositorySettings> = {}): RepositorySettings => ({
  checkoutMode: 'worktree',
  url: 'https://github.com/team/app.git',
  localPath: null,
  defaultBranch: 'main',
  branchTemplate: DEFAULT_BRANCH_TEMPLATE,
  hasCredential: false,
  ...overrides,
});

describe('repository settings rules', () => {
  it.each([
    'https://github.com/team/app.git',
    'http://git.internal:8080/team/app',
    'ssh://git@github.com/team/app.git',
    'ssh://git@github.com:2222/team/app.git',
    'git@github.com:team/app.git',
    'file:///srv/git/app.git',
    '/srv/git/app.git',
  ])('accepts %s', (url) => {
    expect(repositoryUrlProblem(url)).toBeUndefined();
  });

  it.each([
    ['https://x-access-token:ghp_secret@github.com/team/app.git', /password/],
    ['https://ghp_secret@github.com/team/app.git', /user name or token/],
    ['ssh://git:hunter2@github.com/team/app.git', /password/],
    ['ext::sh -c touch% /tmp/pwned', /spaces/],
    ['ext::ssh', /scheme ext:/],
    ['ftp://example.com/app.git', /scheme ftp:/],
    ['--upload-pack=touch /tmp/x', /spaces/],
    ['-uevil', /must not start with "-"/],
    ['relative/path', /must be an https/],
    ['/srv/../etc/app', /\.\./],
    ['ssh:///team/app.git', /host/],
  ])('refuses %s', (url, why) => {
    expect(repositoryUrlProblem(url)).toMatch(why);
  });

  it('takes an absolute POSIX or Windows path as the local directory, nothing relative or climbing', () => {
    expect(localPathProblem('/home/me/code/app')).toBeUndefined();
    expect(localPathProblem('C:\\code\\app')).toBeUndefined();
    expect(localPathProblem('code/app')).toMatch(/absolute/);
    expect(localPathProblem('/home/me/../other')).toMatch(/\.\./);
    expect(localPathProblem('/home/me/\napp')).toMatch(/control/);
  });

  it.each(['main', 'release/2.x', 'feature/add-thing', 'v1.0'])('accepts the branch name %s', (name) => {
    expect(branchNameProblem(name)).toBeUndefined();
  });

  it.each(['', '-main', '@', 'a..b', 'a b', 'a~1', 'a^', 'a:b', 'a?', 'a*', 'a[b', 'a\\b', 'a@{1}', '/main', 'main/', 'a//b', 'main.', '.hidden', 'a/.b', 'main.lock', 'a/b.lock/c'])(
    'refuses the branch name %j',
    (name) => {
      expect(branchNameProblem(name)).toBeDefined();
    },
  );

  it('accepts templates with {source}, {task} and {agent} only, and refuses other placeholders, stray braces and bad branches', () => {
    expect(branchTemplateProblems(DEFAULT_BRANCH_TEMPLATE)).toEqual([]);
    expect(branchTemplateProblems('agents/{agent}/{source}-{task}')).toEqual([]);
    expect(branchTemplateProblems('fixed-branch')).toEqual([]);
    expect(branchTemplateProblems('switchyard/{issue}/{task}/{user}')).toEqual([expect.stringMatching(/^unknown placeholder \{issue\}, \{user\}: only \{source\}, \{task\}, \{agent\}$/)]);
    expect(branchTemplateProblems('switchyard/{task')).toContainEqual('has an unmatched "{" or "}"');
    expect(branchTemplateProblems('switchyard/{task}..x')).toEqual(['does not make a valid branch name: must not contain ".."']);
    expect(branchTemplateProblems('{task} wip')).toEqual([expect.stringMatching(/spaces/)]);
  });

  it('holds each mode to its location: worktree a URL, local_directory a path and no credential', () => {
    expect(repositorySettingsProblems(worktree())).toEqual([]);
    expect(repositorySettingsProblems(worktree({ url: null, localPath: '/code/app' }))).toEqual([
      { field: 'url', message: 'is required in worktree mode' },
      { field: 'localPath', message: 'must be null in worktree mode (give url)' },
    ]);
    expect(repositorySettingsProblems(worktree({ checkoutMode: 'local_directory', url: null, localPath: '/code/app' }))).toEqual([]);
    expect(repositorySettingsProblems(worktree({ checkoutMode: 'local_directory', localPath: null, hasCredential: true }))).toEqual([
      { field: 'localPath', message: 'is required in local_directory mode' },
      { field: 'url', message: 'must be null in local_directory mode (give localPath)' },
      { field: 'credential', message: 'must be null in local_directory mode: nothing is fetched' },
    ]);
  });

  it('lists every problem at once, a token credential only over http(s)', () => {
    expect(repositorySettingsProblems(worktree({ url: 'git@github.com:team/app.git', hasCredential: true, defaultBranch: 'a..b', branchTemplate: '{who}/{task}' }))).toEqual([
      { field: 'credential', message: 'an https_token credential is sent over https:// or http:// only; ssh and local URLs take none' },
      { field: 'defaultBranch', message: 'must not contain ".."' },
      { field: 'branchTemplate', message: 'unknown placeholder {who}: only {source}, {task}, {agent}' },
    ]);
    expect(repositorySettingsProblems(worktree({ hasCredential: true }))).toEqual([]);
  });
});
