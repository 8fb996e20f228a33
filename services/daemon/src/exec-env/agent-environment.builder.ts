import path from 'node:path';
import { isBlockedAgentEnvironmentKey, type ClaimedTask } from '@switchyard/contracts';

/**
 * The variables every task gets; the agent's own env may never set them. `SWITCHYARD_TOKEN` is the
 * task token (what `yard` reads); the API URL, daemon socket and issue id are set only when there is one.
 */
export const TASK_ENVIRONMENT_KEYS = {
  taskId: 'SWITCHYARD_TASK_ID',
  taskToken: 'SWITCHYARD_TOKEN',
  workspaceId: 'SWITCHYARD_WORKSPACE_ID',
  agentId: 'SWITCHYARD_AGENT_ID',
  attempt: 'SWITCHYARD_ATTEMPT',
  apiUrl: 'SWITCHYARD_API_URL',
  issueId: 'SWITCHYARD_ISSUE_ID',
  daemonSocket: 'SWITCHYARD_DAEMON_SOCKET',
} as const;

/** How the agent calls back: the gateway's URL, the folder of the `yard` shim and the daemon's agent socket, each absent when the daemon has none. */
export interface AgentCallback {
  readonly apiUrl: string | undefined;
  readonly binDirectory: string | undefined;
  /** The unix socket of the daemon's agent-request server (`yard repo ...`): the daemon acts there, so credentials stay with it. */
  readonly daemonSocket?: string | undefined;
}

const POSIX_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

// The blocked keys are the contracts' (the gateway refuses them at the API); re-exported for this folder's callers.
export { isBlockedAgentEnvironmentKey };

export type RejectedEnvironmentKeyReason = 'blocked' | 'invalid_name' | 'invalid_value';

export interface RejectedEnvironmentKey {
  key: string;
  /** `agent`: from the agent's configured env; `runtime`: from the adapter / daemon config. */
  origin: 'agent' | 'runtime';
  reason: RejectedEnvironmentKeyReason;
}

export interface AgentEnvironmentOptions {
  base: {
    path: string;
    /** Per-task or per-runtime HOME chosen by the caller. */
    home: string;
    temporaryDirectory: string;
    language?: string;
  };
  /** Trusted variables the launcher needs (`CODEX_HOME`, `OPENCODE_CONFIG_CONTENT`, a provider base URL). */
  runtimeEnvironment?: Readonly<Record<string, string>>;
  /** The agent's configured env: untrusted, filtered through the blocked keys. */
  agentEnvironment: Readonly<Record<string, string>>;
  task: Pick<ClaimedTask, 'taskId' | 'taskToken' | 'workspaceId' | 'agentId' | 'attempt' | 'source'> & { readonly agent: Pick<ClaimedTask['agent'], 'name'> };
  /** The `yard` folder goes first on PATH, so the agent's shell finds it before anything else named so. */
  callback?: AgentCallback;
}

export interface AgentEnvironment {
  /** The child's complete env: pass it with `extendEnv: false`; nothing from the daemon's env is inherited. */
  environment: Record<string, string>;
  rejectedKeys: RejectedEnvironmentKey[];
}

/** Where an agent's commits come from: its name, and an address that names it but reaches nobody. */
export function gitIdentityOf(task: Pick<ClaimedTask, 'agentId'> & { readonly agent: Pick<ClaimedTask['agent'], 'name'> }): Record<string, string> {
  const email = `agent-${task.agentId}@agents.switchyard.invalid`;
  return { GIT_AUTHOR_NAME: task.agent.name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: task.agent.name, GIT_COMMITTER_EMAIL: email };
}

function problemWith(key: string, value: string): RejectedEnvironmentKeyReason | undefined {
  if (!POSIX_NAME_PATTERN.test(key)) return 'invalid_name';
  if (value.includes('\0')) return 'invalid_value';
  return undefined;
}

/**
 * Builds the child's env from scratch: base, then runtime variables, then the agent's (minus
 * blocked keys), then the task variables, which always win. Never reads `process.env`.
 */
export function buildAgentEnvironment(options: AgentEnvironmentOptions): AgentEnvironment {
  const binDirectory = options.callback?.binDirectory;
  const environment: Record<string, string> = {
    PATH: binDirectory ? `${binDirectory}${path.delimiter}${options.base.path}` : options.base.path,
    HOME: options.base.home,
    LANG: options.base.language ?? 'C.UTF-8',
    TERM: 'dumb',
    TMPDIR: options.base.temporaryDirectory,
    // The agent's commits name it (the runtime HOME has no git identity); its own env may say otherwise.
    ...gitIdentityOf(options.task),
  };
  const rejectedKeys: RejectedEnvironmentKey[] = [];

  for (const [key, value] of Object.entries(options.runtimeEnvironment ?? {})) {
    const reason = problemWith(key, value) ?? (key.toUpperCase().startsWith('SWITCHYARD_') ? 'blocked' : undefined);
    if (reason) rejectedKeys.push({ key, origin: 'runtime', reason });
    else environment[key] = value;
  }
  for (const [key, value] of Object.entries(options.agentEnvironment)) {
    const reason = problemWith(key, value) ?? (isBlockedAgentEnvironmentKey(key) ? 'blocked' : undefined);
    if (reason) rejectedKeys.push({ key, origin: 'agent', reason });
    else environment[key] = value;
  }

  const { task } = options;
  environment[TASK_ENVIRONMENT_KEYS.taskId] = task.taskId;
  environment[TASK_ENVIRONMENT_KEYS.taskToken] = task.taskToken;
  environment[TASK_ENVIRONMENT_KEYS.workspaceId] = task.workspaceId;
  environment[TASK_ENVIRONMENT_KEYS.agentId] = task.agentId;
  environment[TASK_ENVIRONMENT_KEYS.attempt] = String(task.attempt);
  if (options.callback?.apiUrl) environment[TASK_ENVIRONMENT_KEYS.apiUrl] = options.callback.apiUrl;
  if (options.callback?.daemonSocket) environment[TASK_ENVIRONMENT_KEYS.daemonSocket] = options.callback.daemonSocket;
  if (task.source.kind === 'issue') environment[TASK_ENVIRONMENT_KEYS.issueId] = task.source.issueId;
  return { environment, rejectedKeys };
}
