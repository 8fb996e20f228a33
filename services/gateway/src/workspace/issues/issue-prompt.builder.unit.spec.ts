import { buildChatPrompt } from '../triggers/chat-prompt.builder';
import { buildIssuePrompt, PROMPT_COMMENT_MAX_CHARACTERS } from './issue-prompt.builder';

const issue = { id: 'issue-1', title: 'Login fails', description: 'Users see a 500.', status: 'todo', priority: 'high', project: 'web' };
const comment = (id: string, body: string) => ({ id, author: 'api_token:t1', body, createdAt: '2026-01-01T00:00:00.000Z' });

describe('buildIssuePrompt', () => {
  it('assignment: title, facts, description, why, and every comment when the agent has no earlier task', () => {
    const prompt = buildIssuePrompt({
      issue,
      parentIssue: { id: 'issue-0', title: 'Auth epic' },
      trigger: { kind: 'assignment' },
      comments: [comment('c1', 'It started after the deploy')],
      commentsSinceLastTask: false,
      omittedComments: 0,
    });
    expect(prompt).toContain('# Issue: Login fails');
    expect(prompt).toContain('Priority: high\nProject: web\nParent issue: Auth epic (issue-0)');
    expect(prompt).toContain('## Description\nUsers see a 500.');
    expect(prompt).toContain('This issue was assigned to you');
    expect(prompt).toContain('## Comments on this issue\napi_token:t1 at 2026-01-01T00:00:00.000Z (comment c1):\n> It started after the deploy');
  });

  it('mention: quotes the trigger comment, then the comments since the last task, noting omitted ones and cutting long bodies', () => {
    const prompt = buildIssuePrompt({
      issue: { ...issue, description: ' ', project: null },
      parentIssue: null,
      trigger: { kind: 'mention', comment: comment('c9', '@Fixer can you look?\nthanks') },
      comments: [comment('c8', 'x'.repeat(PROMPT_COMMENT_MAX_CHARACTERS + 10))],
      commentsSinceLastTask: true,
      omittedComments: 3,
    });
    expect(prompt).toContain('(no description)');
    expect(prompt).not.toContain('Project:');
    expect(prompt).toContain('You were mentioned in a comment');
    expect(prompt).toContain('(comment c9):\n> @Fixer can you look?\n> thanks');
    expect(prompt).toContain('## Comments since your last task on this issue\n(3 older comments not shown)');
    expect(prompt).toContain('[... 10 more characters]');
  });
});

describe('buildChatPrompt', () => {
  it('is the message, then the attachment names', () => {
    expect(buildChatPrompt({ body: 'Look at this', attachments: [] })).toBe('Look at this');
    expect(buildChatPrompt({ body: 'Look', attachments: [{ name: 'trace.log' }, { name: 'shot.png', mediaType: 'image/png', url: 'https://x.test/s.png' }] })).toBe(
      'Look\n\nAttachments:\n- trace.log\n- shot.png (image/png, https://x.test/s.png)',
    );
  });
});
