/** One comment as the prompt shows it. */
export interface PromptComment {
  readonly id: string;
  /** e.g. `api_token:<id>` or `agent:<id>`. */
  readonly author: string;
  readonly body: string;
  readonly createdAt: string;
}

export interface IssuePromptInput {
  readonly issue: {
    readonly id: string;
    readonly title: string;
    readonly description: string;
    readonly status: string;
    readonly priority: string;
    readonly project: string | null;
  };
  readonly parentIssue: { readonly id: string; readonly title: string } | null;
  readonly trigger: { readonly kind: 'assignment' } | { readonly kind: 'mention'; readonly comment: PromptComment };
  /** Other comments, oldest first: those since the agent's last task on the issue, or all when it has none. */
  readonly comments: readonly PromptComment[];
  readonly commentsSinceLastTask: boolean;
  /** Older comments of that range left out to keep the prompt bounded. */
  readonly omittedComments: number;
}

/** Long comment bodies are cut here; the agent can read the whole issue through the API. */
export const PROMPT_COMMENT_MAX_CHARACTERS = 4_000;
/** At most this many comments besides the trigger comment (the newest ones). */
export const PROMPT_MAX_COMMENTS = 20;

function clip(text: string): string {
  return text.length <= PROMPT_COMMENT_MAX_CHARACTERS ? text : `${text.slice(0, PROMPT_COMMENT_MAX_CHARACTERS)}\n[... ${text.length - PROMPT_COMMENT_MAX_CHARACTERS} more characters]`;
}

function quoted(comment: PromptComment): string {
  return `${comment.author} at ${comment.createdAt} (comment ${comment.id}):\n${clip(comment.body)
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n')}`;
}

/**
 * The prompt of an issue task: what the issue is, why the agent runs now (assignment, or the
 * comment that mentioned it), and what was said since it last worked on the issue. Stable rules
 * (the agent's instructions, skills) travel separately in the agent snapshot.
 */
export function buildIssuePrompt(input: IssuePromptInput): string {
  const { issue, parentIssue, trigger } = input;
  const facts = [`Status: ${issue.status}`, `Priority: ${issue.priority}`];
  if (issue.project !== null) facts.push(`Project: ${issue.project}`);
  if (parentIssue !== null) facts.push(`Parent issue: ${parentIssue.title} (${parentIssue.id})`);
  const sections = [
    `# Issue: ${issue.title}`,
    `Issue id: ${issue.id}\n${facts.join('\n')}`,
    `## Description\n${issue.description.trim() === '' ? '(no description)' : issue.description}`,
    trigger.kind === 'assignment'
      ? '## Why you are running\nThis issue was assigned to you. Work on it.'
      : `## Why you are running\nYou were mentioned in a comment on this issue. Respond to it.\n\n${quoted(trigger.comment)}`,
  ];
  if (input.comments.length > 0) {
    const heading = input.commentsSinceLastTask ? '## Comments since your last task on this issue' : '## Comments on this issue';
    const omitted = input.omittedComments > 0 ? `(${input.omittedComments} older comments not shown)\n\n` : '';
    sections.push(`${heading}\n${omitted}${input.comments.map(quoted).join('\n\n')}`);
  }
  return sections.join('\n\n');
}
