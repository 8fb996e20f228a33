import { CHAT_REPLY_MAX_CHARACTERS, chatReplyBody, chatReplyKey } from './chat-reply.text';

describe('chatReplyBody', () => {
  it('is the trimmed output', () => {
    expect(chatReplyBody(' The build needs node 20.\n')).toBe('The build needs node 20.');
  });
  it('caps a long output and says how much was left out', () => {
    const body = chatReplyBody('x'.repeat(CHAT_REPLY_MAX_CHARACTERS + 7));
    expect(body).toBe(`${'x'.repeat(CHAT_REPLY_MAX_CHARACTERS)}\n[... 7 more characters]`);
  });
  it('says so when the task gave no output', () => {
    expect(chatReplyBody(null)).toBe('(no output)');
    expect(chatReplyBody('   ')).toBe('(no output)');
  });
  it('keys the reply by the task', () => {
    expect(chatReplyKey('task-7')).toBe('reply:task-7');
  });
});
