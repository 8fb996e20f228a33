/**
 * The agent commands of `yard`: what an agent runs in its shell to act on its task's issue with
 * its task token. The issue is `--issue`, else `SWITCHYARD_ISSUE_ID` (the daemon sets it for an
 * issue task); parsing is pure so every form is tested without a gateway.
 */
export type IssueCommand =
  | { readonly kind: 'show'; readonly issueId: string }
  | { readonly kind: 'comment'; readonly issueId: string; readonly body: { readonly from: 'argument'; readonly text: string } | { readonly from: 'stdin' } }
  | { readonly kind: 'status'; readonly issueId: string; readonly status: string }
  | { readonly kind: 'create'; readonly parentIssueId: string; readonly title: string; readonly description: string | undefined };

export class IssueCommandError extends Error {
  override readonly name = 'IssueCommandError';
}

export interface IssueCommandInput {
  readonly verb: string | undefined;
  /** The positionals after `issue <verb>`. */
  readonly words: readonly string[];
  readonly flags: { readonly issue?: string | undefined; readonly parent?: string | undefined; readonly title?: string | undefined; readonly description?: string | undefined };
  readonly env: Readonly<Record<string, string | undefined>>;
}

export const ISSUE_COMMAND_USAGE = `  yard issue show [--issue <id>] [--json]
  yard issue comment <text...> [--issue <id>]        (no text, or -: the text is read from stdin)
  yard issue status <status> [--issue <id>]
  yard issue create --title <title> [--description <text>] [--parent <id>]
      --issue / --parent default to SWITCHYARD_ISSUE_ID (set for an agent's issue task)`;

export function parseIssueCommand(input: IssueCommandInput): IssueCommand {
  const issueOf = (flag: string | undefined, name: string): string => {
    const issueId = flag ?? input.env['SWITCHYARD_ISSUE_ID'];
    if (!issueId) throw new IssueCommandError(`which issue? pass --${name} <id> or set SWITCHYARD_ISSUE_ID`);
    return issueId;
  };
  switch (input.verb) {
    case 'show':
      refuseWords(input.words, 'issue show');
      return { kind: 'show', issueId: issueOf(input.flags.issue, 'issue') };
    case 'comment': {
      const text = input.words.join(' ');
      const issueId = issueOf(input.flags.issue, 'issue');
      if (input.words.length === 0 || text === '-') return { kind: 'comment', issueId, body: { from: 'stdin' } };
      if (text.trim() === '') throw new IssueCommandError('the comment is empty');
      return { kind: 'comment', issueId, body: { from: 'argument', text } };
    }
    case 'status': {
      const [status, ...rest] = input.words;
      if (!status) throw new IssueCommandError('missing the status, e.g. yard issue status in_review');
      refuseWords(rest, `issue status ${status}`);
      return { kind: 'status', issueId: issueOf(input.flags.issue, 'issue'), status };
    }
    case 'create': {
      refuseWords(input.words, 'issue create');
      if (!input.flags.title?.trim()) throw new IssueCommandError('missing --title');
      return { kind: 'create', parentIssueId: issueOf(input.flags.parent, 'parent'), title: input.flags.title, description: input.flags.description };
    }
    default:
      throw new IssueCommandError(`unknown command: issue ${input.verb ?? ''}`.trimEnd());
  }
}

function refuseWords(words: readonly string[], command: string): void {
  if (words.length > 0) throw new IssueCommandError(`${command} takes no more arguments, got: ${words.join(' ')}`);
}
