import { IssueCommandError, parseIssueCommand, type IssueCommandInput } from './issue-command.parser';

const inTask = { SWITCHYARD_ISSUE_ID: 'issue-7' };
const parse = (input: Partial<IssueCommandInput>) => parseIssueCommand({ verb: undefined, words: [], flags: {}, env: inTask, ...input });

describe('parseIssueCommand', () => {
  it('given an issue task, acts on its issue by default and on --issue when named', () => {
    expect(parse({ verb: 'show' })).toEqual({ kind: 'show', issueId: 'issue-7' });
    expect(parse({ verb: 'show', flags: { issue: 'issue-9' } })).toEqual({ kind: 'show', issueId: 'issue-9' });
  });

  it('takes the comment from its words, joined, or from stdin when there are none or just -', () => {
    expect(parse({ verb: 'comment', words: ['Fixed', 'the race.'] })).toEqual({ kind: 'comment', issueId: 'issue-7', body: { from: 'argument', text: 'Fixed the race.' } });
    expect(parse({ verb: 'comment' })).toEqual({ kind: 'comment', issueId: 'issue-7', body: { from: 'stdin' } });
    expect(parse({ verb: 'comment', words: ['-'] })).toEqual({ kind: 'comment', issueId: 'issue-7', body: { from: 'stdin' } });
  });

  it('takes one status, leaving its checking to the API', () => {
    expect(parse({ verb: 'status', words: ['in_review'] })).toEqual({ kind: 'status', issueId: 'issue-7', status: 'in_review' });
  });

  it('creates a sub-issue of --parent, else of the task’s issue', () => {
    expect(parse({ verb: 'create', flags: { title: 'Add a retry', description: 'In the helper' } })).toEqual({ kind: 'create', parentIssueId: 'issue-7', title: 'Add a retry', description: 'In the helper' });
    expect(parse({ verb: 'create', flags: { title: 'Add a retry', parent: 'issue-8' } })).toEqual({ kind: 'create', parentIssueId: 'issue-8', title: 'Add a retry', description: undefined });
  });

  it.each([
    [{ verb: 'show', env: {} }, /SWITCHYARD_ISSUE_ID/],
    [{ verb: 'create', flags: { title: 'x' }, env: {} }, /--parent/],
    [{ verb: 'comment', words: ['  '] }, /empty/],
    [{ verb: 'status' }, /missing the status/],
    [{ verb: 'status', words: ['done', 'now'] }, /takes no more arguments/],
    [{ verb: 'show', words: ['extra'] }, /takes no more arguments/],
    [{ verb: 'create' }, /missing --title/],
    [{ verb: 'close' }, /unknown command: issue close/],
    [{ verb: undefined }, /unknown command: issue$/],
  ] as Array<[Partial<IssueCommandInput>, RegExp]>)('refuses %j with a clear message', (input, message) => {
    expect(() => parse(input)).toThrow(IssueCommandError);
    expect(() => parse(input)).toThrow(message);
  });
});
