import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { createRedactor, redactionMarker, type Redactor } from '@switchyard/redaction';
import type { RepositoryCredential } from '@switchyard/contracts';

/** A git command that exited non-zero (or never started); `stderr` is already redacted. */
export class GitCommandFailure extends Error {
  constructor(
    readonly subcommand: string,
    readonly stderr: string,
    readonly exitCode: number | undefined,
  ) {
    super(`git ${subcommand} failed (exit ${exitCode ?? 'none'})`);
    this.name = 'GitCommandFailure';
  }
}

export interface RunGitOptions {
  /** Arguments after `git` and our `-c` settings. */
  args: readonly string[];
  cwd?: string;
  /** Answered through GIT_ASKPASS from this child's env only: never argv, URL, config or disk. */
  credential?: RepositoryCredential | null;
  /** The script `ensureGitAskPassScript` wrote; required with a credential. */
  askPassScript?: string;
  /** Extra variables (e.g. GIT_INDEX_FILE for a scratch index). */
  env?: Record<string, string>;
  input?: string;
  signal?: AbortSignal;
}

// Settings for every call, ahead of the subcommand: no stored credential helper may answer (or
// store) for us, and a transfer stalled for a minute fails instead of hanging a task forever.
const SAFETY_SETTINGS = ['-c', 'credential.helper=', '-c', 'http.lowSpeedLimit=1000', '-c', 'http.lowSpeedTime=60', '-c', 'core.quotePath=false'];

// The daemon's own variables (its NATS credentials among them) never reach git; only what a
// transport needs does. GIT_* from a caller's shell (GIT_DIR, GIT_INDEX_FILE) would aim git elsewhere.
const PASSED_THROUGH = ['PATH', 'HOME', 'TMPDIR', 'SSH_AUTH_SOCK', 'http_proxy', 'https_proxy', 'no_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'];

const ASKPASS_SCRIPT = `#!/bin/sh
# Switchyard's GIT_ASKPASS: answers git's prompt from variables set on that one git process only.
case "$1" in
  Username*) [ -n "$SWITCHYARD_GIT_USERNAME" ] || exit 1; printf '%s\\n' "$SWITCHYARD_GIT_USERNAME" ;;
  *) [ -n "$SWITCHYARD_GIT_PASSWORD" ] || exit 1; printf '%s\\n' "$SWITCHYARD_GIT_PASSWORD" ;;
esac
`;

/** Writes the askpass script into `directory` (made 0700); holds no secret, only reads env. */
export async function ensureGitAskPassScript(directory: string): Promise<string> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  await chmod(directory, 0o700);
  const script = path.join(directory, 'git-askpass.sh');
  // Written aside and renamed in: another daemon sharing the home may be running it right now.
  const draft = `${script}.${randomBytes(4).toString('hex')}`;
  await writeFile(draft, ASKPASS_SCRIPT, { mode: 0o700 });
  await rename(draft, script);
  return script;
}

/** Replaces the credential's secret and any URL userinfo in text git printed. */
export function gitOutputRedactor(credential: RepositoryCredential | null | undefined): Redactor {
  const redactSecrets = createRedactor({ exactSecrets: credential ? [credential.secret] : [] });
  const secret = credential?.secret;
  return (text) => {
    // Exact match for any length: createRedactor skips secrets under 8 characters.
    const exact = secret !== undefined && secret.length >= 4 ? text.split(secret).join(redactionMarker('known_secret')) : text;
    return redactSecrets(exact.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s'"]*@/gi, '$1'));
  };
}

/** Runs the system `git` with a clean env and LC_ALL=C (so `classifyGitFailure` can read stderr); resolves stdout. */
export async function runGit(options: RunGitOptions): Promise<string> {
  const redact = gitOutputRedactor(options.credential);
  const env: Record<string, string> = {
    ...Object.fromEntries(PASSED_THROUGH.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]]))),
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_SSH_COMMAND: process.env['GIT_SSH_COMMAND'] ?? 'ssh -o BatchMode=yes',
    ...options.env,
  };
  if (options.credential) {
    if (!options.askPassScript) throw new Error('runGit: a credential needs the askpass script');
    env['GIT_ASKPASS'] = options.askPassScript;
    env['SWITCHYARD_GIT_USERNAME'] = options.credential.username;
    env['SWITCHYARD_GIT_PASSWORD'] = options.credential.secret;
  }
  const subcommand = options.args.find((argument) => !argument.startsWith('-')) ?? 'git';
  const result = await execa('git', [...SAFETY_SETTINGS, ...options.args], {
    cwd: options.cwd,
    env,
    extendEnv: false,
    reject: false,
    stdin: options.input === undefined ? 'ignore' : 'pipe',
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.signal ? { cancelSignal: options.signal } : {}),
  });
  if (result.exitCode === 0 && !result.failed) return result.stdout;
  const reason = result.isCanceled ? 'cancelled' : result.exitCode === undefined ? (result.originalMessage ?? 'git did not start') : result.stderr;
  throw new GitCommandFailure(subcommand, redact(reason), result.exitCode);
}
