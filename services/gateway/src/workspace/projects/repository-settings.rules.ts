import { BRANCH_TEMPLATE_PLACEHOLDERS, type RepositoryCheckoutMode } from '@switchyard/contracts';

/** One broken rule of a repository's settings: `field` names the request field. */
export interface RepositorySettingsProblem {
  readonly field: 'checkoutMode' | 'url' | 'localPath' | 'defaultBranch' | 'branchTemplate' | 'credential';
  readonly message: string;
}

/** The settings as they will be stored (a PATCH merged over what is stored). */
export interface RepositorySettings {
  readonly checkoutMode: RepositoryCheckoutMode;
  readonly url: string | null;
  readonly localPath: string | null;
  readonly defaultBranch: string;
  readonly branchTemplate: string;
  readonly hasCredential: boolean;
}

// `git@github.com:team/app.git`: git's scp-like form (a user, a host, a colon, a path; never `::`).
const SCP_LIKE = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:(?!:)\S+$/;
const URL_SCHEMES = ['https:', 'http:', 'ssh:', 'file:'];
// Control characters and spaces: nothing a git URL or ref needs, and what a command line would split on.
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f]/;

/**
 * Why git may not be handed this URL: only `https://`, `http://`, `ssh://`, `file://`, the
 * scp-like `user@host:path` or an absolute path (no `ext::` or other transports), and never a
 * password or token inside it: credentials go through workspace secrets, which are sealed.
 */
export function repositoryUrlProblem(url: string): string | undefined {
  if (CONTROL_OR_SPACE.test(url)) return 'must not contain spaces or control characters';
  if (url.startsWith('-')) return 'must not start with "-"';
  if (url.startsWith('/')) return url.split('/').includes('..') ? 'an absolute path must not contain ".." segments' : undefined;
  if (SCP_LIKE.test(url) && !url.includes('://')) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an https://, http://, ssh://, file:// URL, user@host:path or an absolute path';
  }
  if (!URL_SCHEMES.includes(parsed.protocol)) return `scheme ${parsed.protocol} is not one of https://, http://, ssh://, file://`;
  if (parsed.password !== '') return 'must not embed a password: give the credential as { username, secretName } instead';
  // An https user name is often the token itself (`https://<token>@github.com/...`); ssh's is the login.
  if (parsed.username !== '' && (parsed.protocol === 'https:' || parsed.protocol === 'http:')) {
    return 'must not embed a user name or token: give the credential as { username, secretName } instead';
  }
  if (parsed.protocol !== 'file:' && parsed.hostname === '') return 'must name a host';
  return undefined;
}

/** Why `localPath` cannot be used in place: it must be absolute (POSIX, or a Windows drive) and plain. */
export function localPathProblem(localPath: string): string | undefined {
  if (/[\u0000-\u001f\u007f]/.test(localPath)) return 'must not contain control characters';
  const windowsDrive = /^[A-Za-z]:[\\/]/.test(localPath);
  if (!localPath.startsWith('/') && !windowsDrive) return 'must be an absolute path';
  if (localPath.split(/[\\/]/).includes('..')) return 'must not contain ".." segments';
  return undefined;
}

/** Why git would refuse this as a branch name: the rules of `git check-ref-format --branch`. */
export function branchNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'must not be empty';
  if (name.startsWith('-')) return 'must not start with "-"';
  if (name === '@') return 'must not be "@"';
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return 'must not contain spaces, control characters or any of ~ ^ : ? * [ \\';
  if (name.includes('..')) return 'must not contain ".."';
  if (name.includes('@{')) return 'must not contain "@{"';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return 'must not start or end with "/" or contain "//"';
  if (name.endsWith('.')) return 'must not end with "."';
  for (const component of name.split('/')) {
    if (component.startsWith('.')) return 'no "/"-separated part may start with "."';
    if (component.endsWith('.lock')) return 'no "/"-separated part may end with ".lock"';
  }
  return undefined;
}

// What the daemon puts in: `issue-1a2b3c4d`, a short task id, an agent slug.
const SAMPLE_PLACEHOLDER_VALUES: Readonly<Record<(typeof BRANCH_TEMPLATE_PLACEHOLDERS)[number], string>> = { source: 'issue-1a2b3c4d', task: '5e6f7a8b', agent: 'reviewer' };

/** Every problem of a branch template: a placeholder outside `BRANCH_TEMPLATE_PLACEHOLDERS`, a stray brace, or a branch git would refuse. */
export function branchTemplateProblems(template: string): string[] {
  const problems: string[] = [];
  const placeholders = [...template.matchAll(/\{([^{}]*)\}/g)].map((match) => match[1] ?? '');
  const unknown = [...new Set(placeholders.filter((name) => !(BRANCH_TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name)))];
  if (unknown.length > 0) problems.push(`unknown placeholder ${unknown.map((name) => `{${name}}`).join(', ')}: only ${BRANCH_TEMPLATE_PLACEHOLDERS.map((name) => `{${name}}`).join(', ')}`);
  const rendered = template.replace(/\{([^{}]*)\}/g, (_whole, name: string) => SAMPLE_PLACEHOLDER_VALUES[name as keyof typeof SAMPLE_PLACEHOLDER_VALUES] ?? 'x');
  if (/[{}]/.test(rendered)) problems.push('has an unmatched "{" or "}"');
  const refProblem = branchNameProblem(rendered.replace(/[{}]/g, ''));
  if (refProblem) problems.push(`does not make a valid branch name: ${refProblem}`);
  return problems;
}

/** Every rule the settings break together: each mode's location, the URL, the branch and template, a credential only where git fetches. */
export function repositorySettingsProblems(settings: RepositorySettings): RepositorySettingsProblem[] {
  const problems: RepositorySettingsProblem[] = [];
  if (settings.checkoutMode === 'worktree') {
    if (settings.url === null) problems.push({ field: 'url', message: 'is required in worktree mode' });
    if (settings.localPath !== null) problems.push({ field: 'localPath', message: 'must be null in worktree mode (give url)' });
  } else {
    if (settings.localPath === null) problems.push({ field: 'localPath', message: 'is required in local_directory mode' });
    if (settings.url !== null) problems.push({ field: 'url', message: 'must be null in local_directory mode (give localPath)' });
    if (settings.hasCredential) problems.push({ field: 'credential', message: 'must be null in local_directory mode: nothing is fetched' });
  }
  const urlProblem = settings.url === null ? undefined : repositoryUrlProblem(settings.url);
  if (urlProblem) problems.push({ field: 'url', message: urlProblem });
  if (settings.hasCredential && settings.url !== null && !/^https?:\/\//i.test(settings.url)) {
    problems.push({ field: 'credential', message: 'an https_token credential is sent over https:// or http:// only; ssh and local URLs take none' });
  }
  const pathProblem = settings.localPath === null ? undefined : localPathProblem(settings.localPath);
  if (pathProblem) problems.push({ field: 'localPath', message: pathProblem });
  const branchProblem = branchNameProblem(settings.defaultBranch);
  if (branchProblem) problems.push({ field: 'defaultBranch', message: branchProblem });
  problems.push(...branchTemplateProblems(settings.branchTemplate).map((message) => ({ field: 'branchTemplate' as const, message })));
  return problems;
}
