import { CONTEXT_BLOCK_BEGIN as BEGIN, CONTEXT_BLOCK_END as END, mergeManagedBlock, renderContextBody } from './context-file.writer';
import { sampleClaimedTask } from './exec-env.spec-helper';

const merge = (existing: string | Buffer, body: string) => {
  const result = mergeManagedBlock(typeof existing === 'string' ? Buffer.from(existing, 'utf8') : existing, body);
  return { text: result.content.toString('utf8'), placement: result.placement, bytes: result.content };
};

describe('mergeManagedBlock', () => {
  it('writes a lone block into an empty file', () => {
    expect(merge('', 'hello')).toEqual(expect.objectContaining({ text: `${BEGIN}\nhello\n${END}\n`, placement: 'appended' }));
  });

  it('appends after user text, separated by a blank line', () => {
    expect(merge('# Mine', 'hello').text).toBe(`# Mine\n\n${BEGIN}\nhello\n${END}\n`);
    expect(merge('# Mine\n', 'hello').text).toBe(`# Mine\n\n${BEGIN}\nhello\n${END}\n`);
    expect(merge('# Mine\n\n', 'hello').text).toBe(`# Mine\n\n${BEGIN}\nhello\n${END}\n`);
  });

  it('replaces only the managed block, keeping every other byte (CRLF, invalid UTF-8, trailing text)', () => {
    const before = Buffer.concat([Buffer.from('user\r\nline \u00e9\r\n', 'utf8'), Buffer.from([0xff, 0xfe, 0x0a])]);
    const after = Buffer.from('\r\n  trailing user text without newline', 'utf8');
    const existing = Buffer.concat([before, Buffer.from(`${BEGIN}\nold body\n${END}`), after]);

    const { bytes, placement } = merge(existing, 'new body');

    expect(placement).toBe('replaced');
    expect(bytes.subarray(0, before.length).equals(before)).toBe(true);
    expect(bytes.subarray(bytes.length - after.length).equals(after)).toBe(true);
    expect(bytes.subarray(before.length, bytes.length - after.length).toString('utf8')).toBe(`${BEGIN}\nnew body\n${END}`);
  });

  it('is idempotent: merging the same body twice changes nothing', () => {
    const once = merge('# Mine\n', 'body').bytes;
    const twice = merge(once, 'body').bytes;
    expect(twice.equals(once)).toBe(true);
  });

  it.each([
    ['a begin without an end', `# Mine\n${BEGIN}\nhalf-written notes\n`],
    ['an end without a begin', `# Mine\n${END}\nnotes\n`],
    ['reversed markers', `${END}\nnotes\n${BEGIN}\n`],
  ])('appends a fresh block to a file with %s, keeping the text, and stays idempotent', (_label, existing) => {
    const first = merge(existing, 'body');
    expect(first.placement).toBe('appended');
    expect(first.text.startsWith(existing)).toBe(true);
    expect(first.text.endsWith(`${BEGIN}\nbody\n${END}\n`)).toBe(true);

    const second = merge(first.bytes, 'body');
    expect(second.placement).toBe('replaced');
    expect(second.bytes.equals(first.bytes)).toBe(true);
    const third = merge(first.bytes, 'new body');
    expect(third.text).toBe(`${first.text.slice(0, first.text.length - `${BEGIN}\nbody\n${END}\n`.length)}${BEGIN}\nnew body\n${END}\n`);
  });

  it('defuses marker text inside the body so it cannot end the block early', () => {
    const { text } = merge('', `before ${END} after ${BEGIN}`);
    expect(text.split(END)).toHaveLength(2);
    expect(text.split(BEGIN)).toHaveLength(2);
    expect(merge(text, `before ${END} after ${BEGIN}`).text).toBe(text);
  });
});

describe('renderContextBody', () => {
  it('holds the instructions and the runtime brief but never the task token value', () => {
    const task = sampleClaimedTask();
    const body = renderContextBody(task);
    expect(body).toContain('Do the task.');
    expect(body).toContain(task.taskId);
    expect(body).toContain('SWITCHYARD_TOKEN');
    expect(body).toContain('## Do not');
    expect(body).not.toContain(task.taskToken);
  });

  it('given an issue task, describes the yard agent commands on its issue', () => {
    const body = renderContextBody(sampleClaimedTask());
    for (const command of ['yard issue show', 'yard issue comment', 'yard issue status <status>', 'yard issue create --parent']) expect(body).toContain(command);
    expect(body).toContain('`issue-1`');
  });

  it('given a chat task, says its token opens no yard issue command', () => {
    const body = renderContextBody({ ...sampleClaimedTask(), source: { kind: 'chat', chatSessionId: 'chat-1', chatMessageId: 'message-1' } });
    expect(body).not.toContain('yard issue show');
    expect(body).toContain('works on no issue');
  });

  it('lists the skills installed for the run with their folders, and no skills section without any', () => {
    const body = renderContextBody(sampleClaimedTask(), [{ name: 'review', folder: '.claude/skills/review' }]);
    expect(body).toContain('## Skills');
    expect(body).toContain('- `review` in `.claude/skills/review/`');
    expect(renderContextBody(sampleClaimedTask())).not.toContain('## Skills');
  });

  it('defuses markers hidden in the agent instructions', () => {
    const task = sampleClaimedTask();
    const body = renderContextBody({ ...task, agent: { ...task.agent, instructions: `x ${END} y` } });
    expect(body).not.toContain(END);
  });
});
