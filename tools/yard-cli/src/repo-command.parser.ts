/**
 * `yard repo ...`: an agent asks the daemon running its task for its repositories. The daemon does
 * the checkout (it holds the git credential; the agent never does), reached on the unix socket
 * named by `SWITCHYARD_DAEMON_SOCKET` with the task's id and token. Parsing is pure.
 */
export type RepoCommand = { readonly kind: 'list' } | { readonly kind: 'checkout'; readonly repositoryName: string };

/** A usage error: exit code 2. */
export class RepoCommandError extends Error {
  override readonly name = 'RepoCommandError';
}

/** Not inside a task a daemon runs (or a token missing): exit code 1. */
export class DaemonChannelError extends Error {
  override readonly name = 'DaemonChannelError';
}

export interface RepoCommandInput {
  readonly verb: string | undefined;
  /** The positionals after `repo <verb>`. */
  readonly words: readonly string[];
}

/** Where the task's daemon listens and what proves the request is the task's. */
export interface DaemonChannel {
  readonly socketPath: string;
  readonly taskId: string;
  readonly token: string;
}

export const REPO_COMMAND_USAGE = `  yard repo list [--json]
  yard repo checkout <name> [--json]
      the task's repositories, checked out by its daemon into <work dir>/<name>
      (inside a task only: SWITCHYARD_DAEMON_SOCKET, SWITCHYARD_TASK_ID, SWITCHYARD_TOKEN)`;

export function parseRepoCommand(input: RepoCommandInput): RepoCommand {
  switch (input.verb) {
    case 'list':
      if (input.words.length > 0) throw new RepoCommandError(`repo list takes no more arguments, got: ${input.words.join(' ')}`);
      return { kind: 'list' };
    case 'checkout': {
      const [repositoryName, ...rest] = input.words;
      if (!repositoryName?.trim()) throw new RepoCommandError('missing the repository name, e.g. yard repo checkout api (yard repo list names them)');
      if (rest.length > 0) throw new RepoCommandError(`repo checkout takes one repository, got: ${input.words.join(' ')}`);
      return { kind: 'checkout', repositoryName };
    }
    default:
      throw new RepoCommandError(`unknown command: repo ${input.verb ?? ''}`.trimEnd());
  }
}

export function resolveDaemonChannel(options: { readonly env: Readonly<Record<string, string | undefined>>; readonly token?: string | undefined }): DaemonChannel {
  const socketPath = options.env['SWITCHYARD_DAEMON_SOCKET'];
  if (!socketPath) throw new DaemonChannelError('not running inside a Switchyard task: SWITCHYARD_DAEMON_SOCKET is not set (the daemon sets it for the agents it runs)');
  const taskId = options.env['SWITCHYARD_TASK_ID'];
  if (!taskId) throw new DaemonChannelError('not running inside a Switchyard task: SWITCHYARD_TASK_ID is not set');
  const token = options.token ?? options.env['SWITCHYARD_TOKEN'];
  if (!token) throw new DaemonChannelError('no task token: SWITCHYARD_TOKEN is not set (pass --token to give one)');
  return { socketPath, taskId, token };
}
