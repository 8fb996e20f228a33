import path from 'node:path';
import type { ClaimedTask } from '@switchyard/contracts';
import { runtimeLayoutFor, type RuntimeTarget } from '@switchyard/agent-adapters/wing';
import { readFileInside, writeFileInside } from './safe-path.guard';

export const CONTEXT_BLOCK_BEGIN = '<!-- switchyard:begin -->';
export const CONTEXT_BLOCK_END = '<!-- switchyard:end -->';

const BEGIN_BYTES = Buffer.from(CONTEXT_BLOCK_BEGIN, 'utf8');
const END_BYTES = Buffer.from(CONTEXT_BLOCK_END, 'utf8');

export type ContextFileStatus = 'created' | 'appended' | 'replaced' | 'unchanged';

export interface ContextFileResult {
  path: string;
  fileName: string;
  status: ContextFileStatus;
}

export type ContextTask = Pick<ClaimedTask, 'taskId' | 'attempt' | 'workspaceId' | 'agentId' | 'source' | 'agent'>;

/** Marker text inside our own content would end the block early; defuse it. */
function defuseMarkers(text: string): string {
  return text.replaceAll('<!-- switchyard:', '<!-- switchyard (quoted):');
}

function describeSource(source: ContextTask['source']): string {
  switch (source.kind) {
    case 'issue':
      return `issue \`${source.issueId}\` (${source.trigger})`;
    case 'chat':
      return `chat session \`${source.chatSessionId}\``;
    case 'autopilot':
      return `autopilot \`${source.autopilotId}\` (${source.trigger})`;
    case 'quick_create':
      return 'quick create';
  }
}

/** A skill written into the CLI's native skills folder, as the brief lists it. */
export interface ContextSkill {
  readonly name: string;
  /** Work-directory-relative folder of the skill, e.g. `.claude/skills/review`. */
  readonly folder: string;
}

function skillLines(skills: readonly ContextSkill[]): string[] {
  if (skills.length === 0) return [];
  return ['', '## Skills', '', 'Installed for this run (read a skill\'s `SKILL.md` before using it):', '', ...skills.map((skill) => `- \`${skill.name}\` in \`${skill.folder}/\``)];
}

/** A repository of the run, as the brief lists it. */
export interface ContextRepository {
  readonly name: string;
  readonly checkoutMode: 'worktree' | 'local_directory';
  /** Work-directory-relative folder when checked out; null when it is offered on request only. */
  readonly folder: string | null;
  readonly branch: string | null;
  readonly defaultBranch: string;
}

function repositoryLine(repository: ContextRepository): string {
  if (repository.folder === null) return `- \`${repository.name}\`: not checked out; \`yard repo checkout ${repository.name}\` puts it in \`${repository.name}/\`.`;
  if (repository.checkoutMode === 'local_directory') return `- \`${repository.name}\` in \`${repository.folder}/\`: a directory of this machine, used in place; one task at a time works in it.`;
  return `- \`${repository.name}\` in \`${repository.folder}/\`: a git worktree on branch \`${repository.branch ?? '?'}\`, started from \`origin/${repository.defaultBranch}\`. Commit your work on this branch; the next task of this conversation continues it.`;
}

function repositoryLines(repositories: readonly ContextRepository[]): string[] {
  if (repositories.length === 0) return [];
  return [
    '',
    '## Repositories',
    '',
    ...repositories.map(repositoryLine),
    '- `yard repo list` shows them all. Do not push, rebase or delete branches unless the task asks for it.',
  ];
}

/** The agent commands of `yard`, which act on the task's issue with its task token; a task of no issue has none. */
function callbackLines(source: ContextTask['source']): string[] {
  if (source.kind !== 'issue') return ['- This task works on no issue: its task token (`SWITCHYARD_TOKEN`) opens none of the `yard issue` commands.'];
  return [
    `- The \`yard\` command on your PATH acts on this task's issue (\`${source.issueId}\`, also in \`SWITCHYARD_ISSUE_ID\`) as this agent, with the task token in \`SWITCHYARD_TOKEN\`; the token is valid for this attempt only:`,
    '  - `yard issue show`: the issue and its comments.',
    '  - `yard issue comment "<text>"` (or the text on stdin): comment on the issue.',
    '  - `yard issue status <status>`: set its status (`backlog`, `todo`, `in_progress`, `in_review`, `done`, `cancelled`).',
    '  - `yard issue create --parent <issue id> --title "<title>" [--description "<text>"]`: create a sub-issue of it.',
    '- Nothing else is open to the task token: other issues and every other route answer 403.',
  ];
}

/** The managed block's body: the agent's instructions, then what every run needs to know. Never the token's value. */
export function renderContextBody(task: ContextTask, installedSkills: readonly ContextSkill[] = [], repositories: readonly ContextRepository[] = []): string {
  const instructions = task.agent.instructions.trim() === '' ? '_No instructions were configured for this agent._' : task.agent.instructions.trim();
  const lines = [
    '<!-- Managed by Switchyard: everything between the switchyard markers is rewritten for every task. Keep your own notes outside them. -->',
    '',
    '# Agent instructions',
    '',
    instructions,
    '',
    '# Switchyard runtime brief',
    '',
    `- Task: \`${task.taskId}\`, attempt ${task.attempt}, from ${describeSource(task.source)}.`,
    `- Agent: ${task.agent.name} (\`${task.agentId}\`) in workspace \`${task.workspaceId}\`.`,
    '- Work directory: the current directory. It may be reused by the next task of the same issue or chat session.',
    ...repositoryLines(repositories),
    ...skillLines(installedSkills),
    '',
    '## How to report',
    '',
    '- Your final message is the task result: say what you did, what you verified, and what is left open.',
    '- Your messages and tool calls are streamed to the team as you work; no extra reporting step is needed.',
    ...callbackLines(task.source),
    '',
    '## Do not',
    '',
    '- Do not print, log, commit or share the value of `SWITCHYARD_TOKEN` or of any other secret.',
    '- Do not edit this managed block or the `.switchyard/` folder; Switchyard rewrites them.',
    '- Do not wait for interactive input: nobody answers prompts during a run.',
    '- Do not leave background processes running when you finish; they are killed with the task.',
    '- Do not write outside the work directory unless the task asks for it.',
  ];
  return defuseMarkers(lines.join('\n'));
}

/**
 * Puts `body` between the managed markers, byte-exact everywhere else. The managed block is the
 * last begin marker that has an end marker after it; without one (no markers, a lone or reversed
 * marker) a fresh block is appended, so user text is never clobbered and a second run replaces
 * that appended block in place.
 */
export function mergeManagedBlock(existing: Buffer, body: string): { content: Buffer; placement: 'appended' | 'replaced' } {
  const block = Buffer.from(`${CONTEXT_BLOCK_BEGIN}\n${defuseMarkers(body).trimEnd()}\n${CONTEXT_BLOCK_END}`, 'utf8');
  let beginIndex = existing.lastIndexOf(BEGIN_BYTES);
  while (beginIndex !== -1) {
    const endIndex = existing.indexOf(END_BYTES, beginIndex + BEGIN_BYTES.length);
    if (endIndex !== -1) {
      const content = Buffer.concat([existing.subarray(0, beginIndex), block, existing.subarray(endIndex + END_BYTES.length)]);
      return { content, placement: 'replaced' };
    }
    beginIndex = beginIndex === 0 ? -1 : existing.lastIndexOf(BEGIN_BYTES, beginIndex - 1);
  }
  const newline = 0x0a;
  const separator = existing.length === 0 ? '' : existing.at(-1) !== newline ? '\n\n' : existing.at(-2) === newline ? '' : '\n';
  return { content: Buffer.concat([existing, Buffer.from(separator), block, Buffer.from('\n')]), placement: 'appended' };
}

/** Writes the context file the target CLI reads (`CLAUDE.md`, `AGENTS.md`, `GEMINI.md`, `QWEN.md`, ...). */
export async function writeContextFile(options: {
  workDirectory: string;
  target: RuntimeTarget;
  body: string;
}): Promise<ContextFileResult> {
  const fileName = runtimeLayoutFor(options.target).contextFileName;
  const filePath = path.join(options.workDirectory, fileName);
  const existing = await readFileInside({ root: options.workDirectory, relativePath: fileName });
  const { content, placement } = mergeManagedBlock(existing ?? Buffer.alloc(0), options.body);
  if (existing !== undefined && existing.equals(content)) return { path: filePath, fileName, status: 'unchanged' };
  await writeFileInside({ root: options.workDirectory, relativePath: fileName, content });
  return { path: filePath, fileName, status: existing === undefined ? 'created' : placement };
}
