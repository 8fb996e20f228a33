import { ISSUE_RESULT_MAX_CHARACTERS, issueFailureBody, issueFailureKey, issueResultBody, issueResultKey } from './issue-result.text';

describe('issueResultBody', () => {
  it('is the trimmed output', () => {
    expect(issueResultBody('  Fixed the login.\n')).toBe('Fixed the login.');
  });
  it('caps a long output and says how much was left out', () => {
    expect(issueResultBody('x'.repeat(ISSUE_RESULT_MAX_CHARACTERS + 3))).toBe(`${'x'.repeat(ISSUE_RESULT_MAX_CHARACTERS)}\n[... 3 more characters]`);
  });
  it('says so when the run gave no output', () => {
    expect(issueResultBody(null)).toBe('(no output)');
    expect(issueResultBody(' ')).toBe('(no output)');
  });
});

describe('issueFailureBody', () => {
  it('names the reason, what it means, the message and the task', () => {
    expect(issueFailureBody({ taskId: 'task-7', reason: 'context_overflow', message: ' prompt is too long \n' })).toBe(
      "The agent's run failed: context_overflow (The conversation exceeded the model context.)\n\nprompt is too long\n\n(task task-7)",
    );
  });
  it('leaves out an empty message', () => {
    expect(issueFailureBody({ taskId: 'task-7', reason: 'internal', message: '' })).toBe("The agent's run failed: internal (A Switchyard defect; see logs.)\n\n(task task-7)");
  });
});

describe('write-back keys', () => {
  it('key the result and the failure note by the task', () => {
    expect(issueResultKey('task-7')).toBe('result:task-7');
    expect(issueFailureKey('task-7')).toBe('failure:task-7');
  });
});
