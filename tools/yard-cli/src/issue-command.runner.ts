import type { CommentView, GatewayClient, IssueView } from './gateway.client';
import { IssueCommandError, type IssueCommand } from './issue-command.parser';

/** The most a comment read from stdin may be: the API's own limit. */
const MAX_COMMENT_CHARACTERS = 100_000;

export interface IssueCommandIo {
  readonly print: (line: string) => void;
  readonly readStdin: () => Promise<string>;
  readonly json: boolean;
}

function renderIssue(issue: IssueView, comments: readonly CommentView[]): string[] {
  const lines = [`${issue.id}\t[${issue.status}]\t${issue.title}`];
  if (issue.parentIssueId) lines.push(`parent: ${issue.parentIssueId}`);
  if (issue.description.trim()) lines.push('', issue.description.trimEnd());
  for (const comment of comments) lines.push('', `--- ${comment.createdAt} ${comment.author.kind}:${comment.author.id}`, comment.body.trimEnd());
  return lines;
}

/** Runs one agent command against the gateway; prints what an agent (or a person) needs to go on. */
export async function runIssueCommand(command: IssueCommand, gateway: GatewayClient, io: IssueCommandIo): Promise<number> {
  const printJson = (value: unknown): void => io.print(JSON.stringify(value));
  switch (command.kind) {
    case 'show': {
      const [issue, { comments }] = await Promise.all([gateway.issue(command.issueId), gateway.comments(command.issueId)]);
      if (io.json) printJson({ issue, comments });
      else renderIssue(issue, comments).forEach(io.print);
      return 0;
    }
    case 'comment': {
      const text = command.body.from === 'stdin' ? await io.readStdin() : command.body.text;
      if (text.trim() === '') throw new IssueCommandError('the comment is empty');
      if (text.length > MAX_COMMENT_CHARACTERS) throw new IssueCommandError(`the comment is longer than ${MAX_COMMENT_CHARACTERS} characters`);
      const comment = await gateway.comment(command.issueId, text);
      if (io.json) printJson(comment);
      else io.print(`${comment.id}\tcommented on ${command.issueId}`);
      return 0;
    }
    case 'status': {
      const issue = await gateway.setIssueStatus(command.issueId, command.status);
      if (io.json) printJson(issue);
      else io.print(`${issue.id}\t${issue.status}`);
      return 0;
    }
    case 'create': {
      const issue = await gateway.createIssue({ title: command.title, parentIssueId: command.parentIssueId, ...(command.description === undefined ? {} : { description: command.description }) });
      if (io.json) printJson(issue);
      else io.print(`${issue.id}\tsub-issue of ${command.parentIssueId}: ${issue.title}`);
      return 0;
    }
  }
}
