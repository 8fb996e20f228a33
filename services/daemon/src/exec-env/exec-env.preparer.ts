import { runtimeLayoutFor, writeMcpConfig, type McpArtefacts } from '@switchyard/agent-adapters/wing';
import type { ClaimedTask, ProtocolFamily } from '@switchyard/contracts';
import { buildAgentEnvironment, type AgentCallback, type RejectedEnvironmentKey } from './agent-environment.builder';
import { renderContextBody, writeContextFile, type ContextFileResult, type ContextRepository } from './context-file.writer';
import { parseNeutralMcpConfig } from './mcp-config.schema';
import { ensureDirectoryInside, workDirectoryFiles } from './safe-path.guard';
import { installSkills, type SkillContentProvider, type SkillsInstallResult } from './skills.installer';
import { prepareWorkDirectory, SWITCHYARD_FOLDER, type WorkDirectoryMarker, type WorkDirectoryReason } from './work-directory.preparer';

export interface PrepareExecEnvOptions {
  /** Absolute workspaces root. */
  root: string;
  /** The daemon installation's random id, persisted by the daemon; recorded in and checked against markers. */
  ownerId: string;
  task: ClaimedTask;
  protocolFamily: ProtocolFamily;
  /** The built-in identity (`claude-code`, `qwen-code`, `gemini-cli`); null for a profile's command, which gets its family's files. */
  runtimeIdentity?: string | null;
  /** Where the prior task of this (agent, issue) or chat session ran; `null` for none or a forced fresh start. */
  priorWorkDirectory: string | null;
  provideSkill: SkillContentProvider;
  /**
   * Puts the task's repositories into the prepared work dir (checkouts at start, the rest offered)
   * and says how the brief lists them; none when omitted. A failure fails the preparation.
   */
  prepareRepositories?: (workDirectory: string) => Promise<readonly ContextRepository[]>;
  /** HOME for the child (per task or per runtime), chosen by the caller. */
  home: string;
  /** PATH for the child; the daemon's own PATH when omitted (a PATH is not a credential). */
  path?: string;
  /** Trusted launcher variables, e.g. `CODEX_HOME` for a throwaway Codex home. */
  runtimeEnvironment?: Readonly<Record<string, string>>;
  /** The gateway URL and the `yard` folder the agent calls back with. */
  callback?: AgentCallback;
  now?: () => Date;
}

export interface PreparedExecEnv {
  workDirectory: string;
  reused: boolean;
  reason: WorkDirectoryReason;
  reasonDetail: string;
  marker: WorkDirectoryMarker;
  /** The child's complete env (spawn with `extendEnv: false`). Contains the task token: never log it. */
  environment: Record<string, string>;
  rejectedEnvironmentKeys: RejectedEnvironmentKey[];
  contextFile: ContextFileResult;
  /** The runtime brief to put in front of the prompt, for CLIs that read no context file; else null. */
  inlineRuntimeBrief: string | null;
  skills: SkillsInstallResult;
  mcp: McpArtefacts;
  repositories: readonly ContextRepository[];
}

/** The private temp dir inside the work dir (`TMPDIR`), git-ignored with the rest of `.switchyard/`. */
export const TASK_TEMPORARY_FOLDER = 'tmp';

/**
 * Prepares one task's execution environment: work directory (reused only when provably ours),
 * context file, skills, MCP config in the CLI's native form, and the child's explicit env.
 * The MCP config is validated before anything touches the disk.
 */
export async function prepareExecEnv(options: PrepareExecEnvOptions): Promise<PreparedExecEnv> {
  const { task } = options;
  const target = { protocolFamily: options.protocolFamily, identity: options.runtimeIdentity ?? null };
  const servers = parseNeutralMcpConfig(task.agent.mcpConfig);

  const workDirectory = await prepareWorkDirectory({
    root: options.root,
    ownerId: options.ownerId,
    task,
    priorWorkDirectory: task.forceFreshSession ? null : options.priorWorkDirectory,
    now: options.now,
  });
  const directory = workDirectory.path;
  const temporaryDirectory = await ensureDirectoryInside({ root: directory, segments: [SWITCHYARD_FOLDER, TASK_TEMPORARY_FOLDER] });

  // Repositories and skills first: the brief lists what they became.
  const repositories = options.prepareRepositories ? await options.prepareRepositories(directory) : [];
  const skills = await installSkills({ workDirectory: directory, target, skillNames: task.agent.skills, provideSkill: options.provideSkill });
  const skillsFolder = runtimeLayoutFor(target).skillsDirectory;
  const runtimeBrief = renderContextBody(
    task,
    skills.installed.map((skill) => ({ name: skill.name, folder: `${skillsFolder}/${skill.directoryName}` })),
    repositories,
  );
  const contextFile = await writeContextFile({ workDirectory: directory, target, body: runtimeBrief });
  const mcp = await writeMcpConfig({ target, servers, files: workDirectoryFiles(directory) });

  const runtimeEnvironment: Record<string, string> = { ...options.runtimeEnvironment };
  if (mcp.kind === 'opencode-config-content') runtimeEnvironment[mcp.environmentVariable] = mcp.content;
  const { environment, rejectedKeys } = buildAgentEnvironment({
    base: { path: options.path ?? process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin', home: options.home, temporaryDirectory },
    runtimeEnvironment,
    agentEnvironment: task.agent.env,
    task,
    ...(options.callback ? { callback: options.callback } : {}),
  });

  return {
    workDirectory: directory,
    reused: workDirectory.reused,
    reason: workDirectory.reason,
    reasonDetail: workDirectory.detail,
    marker: workDirectory.marker,
    environment,
    rejectedEnvironmentKeys: rejectedKeys,
    contextFile,
    inlineRuntimeBrief: runtimeLayoutFor(target).inlineRuntimeBrief ? runtimeBrief : null,
    skills,
    mcp,
    repositories,
  };
}
