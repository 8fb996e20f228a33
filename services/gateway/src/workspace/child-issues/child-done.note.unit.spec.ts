import { buildChildDoneNote, CHILD_DONE_OUTPUT_MAX_CHARACTERS, childDoneKey } from './child-done.note';

describe('buildChildDoneNote', () => {
  const child = { id: 'issue-2', title: 'Login form' };

  it('names the child, its output and where it came from', () => {
    expect(buildChildDoneNote({ child, taskId: 'task-7', output: ' Fixed the form.\n' })).toBe('child Login form done: Fixed the form.\n\n(child issue issue-2, task task-7)');
  });

  it('caps a long output and says how much was left out', () => {
    const note = buildChildDoneNote({ child, taskId: 'task-7', output: 'x'.repeat(CHILD_DONE_OUTPUT_MAX_CHARACTERS + 25) });
    expect(note).toContain(`${'x'.repeat(CHILD_DONE_OUTPUT_MAX_CHARACTERS)}\n[... 25 more characters]`);
    expect(note).not.toContain('x'.repeat(CHILD_DONE_OUTPUT_MAX_CHARACTERS + 1));
  });

  it('says so when the task gave no output', () => {
    expect(buildChildDoneNote({ child, taskId: 'task-7', output: null })).toContain('done: (no output)');
    expect(buildChildDoneNote({ child, taskId: 'task-7', output: '  ' })).toContain('done: (no output)');
  });

  it('keys the note and the trigger by the child task', () => {
    expect(childDoneKey('task-7')).toBe('child_done:task-7');
  });
});
