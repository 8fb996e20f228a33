import { readSkillFrontMatter } from './skill-front-matter';

describe('SKILL.md front matter', () => {
  it('reads name and description from the leading YAML block', () => {
    expect(readSkillFrontMatter('---\nname: review\ndescription: >\n  Careful review\n  of diffs\n---\n# Body\n')).toEqual({ kind: 'fields', name: 'review', description: 'Careful review of diffs' });
  });

  it('accepts CRLF line ends and an empty block', () => {
    expect(readSkillFrontMatter('---\r\nname: review\r\n---\r\nBody')).toEqual({ kind: 'fields', name: 'review' });
    expect(readSkillFrontMatter('---\n\n---\nBody')).toEqual({ kind: 'fields' });
  });

  it('says none when the file does not start with a block', () => {
    expect(readSkillFrontMatter('# Review\n---\nname: x\n---\n')).toEqual({ kind: 'none' });
  });

  it.each([
    ['---\nname: [unclosed\n---\n', /./],
    ['---\n- a list\n---\n', /not a YAML mapping/],
    ['---\nname: 42\n---\n', /`name` is not a string/],
    ['---\ndescription: [a, b]\n---\n', /`description` is not a string/],
  ])('refuses %j', (markdown, reason) => {
    const frontMatter = readSkillFrontMatter(markdown);
    expect(frontMatter.kind).toBe('invalid');
    expect(frontMatter.kind === 'invalid' ? frontMatter.reason : '').toMatch(reason);
  });
});
