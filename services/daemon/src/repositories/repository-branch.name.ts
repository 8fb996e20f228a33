import type { ClaimedTask, RepositorySnapshot } from '@switchyard/contracts';
import { BRANCH_TEMPLATE_PLACEHOLDERS } from '@switchyard/contracts';
import { RepositoryError } from './repository.error';

type BranchPlaceholder = (typeof BRANCH_TEMPLATE_PLACEHOLDERS)[number];

/** The last 8 hex digits of an id (a UUID's tail), enough to tell a conversation's branches apart. */
export function shortIdOf(id: string): string {
  const hex = id.toLowerCase().replace(/[^0-9a-f]/g, '');
  return hex.length > 0 ? hex.slice(-8) : slugify(id).slice(-8) || 'x';
}

/** `Review Bot (ß)` → `review-bot-ss`: lowercase ASCII words joined by dashes, at most 40 characters. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug === '' ? 'agent' : slug;
}

/** `{source}`: what the branch continues, `issue-1a2b3c4d`, `chat-…`, `autopilot-…`, or `task`. */
export function branchSourceOf(source: ClaimedTask['source']): string {
  switch (source.kind) {
    case 'issue':
      return `issue-${shortIdOf(source.issueId)}`;
    case 'chat':
      return `chat-${shortIdOf(source.chatSessionId)}`;
    case 'autopilot':
      return `autopilot-${shortIdOf(source.autopilotId)}`;
    case 'quick_create':
      return 'task';
  }
}

/**
 * The task branch's name from the repository's template. An unknown placeholder is refused here;
 * whether git accepts the result is `prepareRepositoryCheckout`'s check (`git check-ref-format`).
 */
export function renderRepositoryBranchName(options: {
  repository: Pick<RepositorySnapshot, 'name' | 'branchTemplate'>;
  task: Pick<ClaimedTask, 'taskId' | 'source'>;
  agentName: string;
}): string {
  const values: Record<BranchPlaceholder, string> = {
    source: branchSourceOf(options.task.source),
    task: shortIdOf(options.task.taskId),
    agent: slugify(options.agentName),
  };
  return options.repository.branchTemplate.replace(/\{([^{}]*)\}/g, (placeholder, name: string) => {
    if (!(BRANCH_TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name)) {
      throw new RepositoryError({
        code: 'repo_branch_invalid',
        repositoryName: options.repository.name,
        message: `Repository ${options.repository.name}: branch template ${options.repository.branchTemplate} uses ${placeholder}; only ${BRANCH_TEMPLATE_PLACEHOLDERS.map((known) => `{${known}}`).join(', ')} exist`,
      });
    }
    return values[name as BranchPlaceholder];
  });
}
