import { createHash } from 'node:crypto';
import {
  SKILL_LIMITS,
  agentSnapshotSchema,
  decodeSkillBundle,
  encodeSkillBundle,
  skillBundleProblems,
  skillContentHash,
  unsafeSkillPathReason,
} from './index';
import { SAMPLE_AGENT } from './event-samples.spec-helper';

const codes = (files: Record<string, string>) => skillBundleProblems(files).map((problem) => problem.code);

describe('skill content hash', () => {
  it('is sha256 over path NUL length NUL bytes, per path in byte order', () => {
    const expected = createHash('sha256').update('SKILL.md\u00002\u0000hi').update('a/b.md\u00003\u0000é!').digest('hex');
    expect(skillContentHash({ 'a/b.md': 'é!', 'SKILL.md': 'hi' })).toBe(expected);
  });

  it('does not depend on the order paths are given in', () => {
    expect(skillContentHash({ 'SKILL.md': 'x', 'b.md': 'y' })).toBe(skillContentHash({ 'b.md': 'y', 'SKILL.md': 'x' }));
  });

  it('changes with one byte, a renamed file, or content moved across a file boundary', () => {
    const base = skillContentHash({ 'SKILL.md': 'ab', 'c.md': 'd' });
    expect(skillContentHash({ 'SKILL.md': 'ab', 'c.md': 'e' })).not.toBe(base);
    expect(skillContentHash({ 'SKILL.md': 'ab', 'C.md': 'd' })).not.toBe(base);
    expect(skillContentHash({ 'SKILL.md': 'a', 'c.md': 'bd' })).not.toBe(base);
  });

  it('survives the object store encoding', () => {
    const files = { 'SKILL.md': '# Skill\n', 'scripts/run.sh': 'echo ✓\n' };
    expect(skillContentHash(decodeSkillBundle(encodeSkillBundle(files)).files)).toBe(skillContentHash(files));
  });
});

describe('skill paths', () => {
  it.each(['SKILL.md', 'scripts/run.sh', 'a/b/c/d.md', '.hidden/notes.md', 'names with spaces.md'])('accepts %j', (relativePath) => {
    expect(unsafeSkillPathReason(relativePath)).toBeUndefined();
  });

  it.each([
    ['', 'is empty'],
    ['/etc/passwd', 'is absolute'],
    ['../outside', 'has a . or .. segment'],
    ['a/../../b', 'has a . or .. segment'],
    ['./SKILL.md', 'has a . or .. segment'],
    ['a//b', 'has an empty segment'],
    ['a/', 'has an empty segment'],
    ['a\\b', 'contains a control character, a backslash or a colon'],
    ['C:/x', 'contains a control character, a backslash or a colon'],
    ['a\nb', 'contains a control character, a backslash or a colon'],
    [Array.from({ length: SKILL_LIMITS.maxPathDepth + 1 }, () => 'd').join('/'), `is deeper than ${SKILL_LIMITS.maxPathDepth} folders`],
    ['x'.repeat(SKILL_LIMITS.maxPathSegmentLength + 1), `has a segment longer than ${SKILL_LIMITS.maxPathSegmentLength} characters`],
    [`${'x'.repeat(99)}/${'y'.repeat(99)}/zzzzz`, `is longer than ${SKILL_LIMITS.maxPathLength} characters`],
  ])('refuses %j: %s', (relativePath, reason) => {
    expect(unsafeSkillPathReason(relativePath)).toBe(reason);
  });
});

describe('skill bundle limits', () => {
  it('accepts a bundle at every limit', () => {
    const files: Record<string, string> = { 'SKILL.md': 'x'.repeat(SKILL_LIMITS.maxFileBytes) };
    for (let index = 1; index < SKILL_LIMITS.maxFiles; index += 1) files[`f${index}.md`] = 'x';
    expect(codes(files)).toEqual([]);
  });

  it('needs SKILL.md at the root', () => {
    expect(codes({ 'docs/SKILL.md': 'x' })).toEqual(['missing_entry_file']);
  });

  it('counts bytes, not characters', () => {
    const multiByte = 'é'.repeat(SKILL_LIMITS.maxFileBytes / 2 + 1);
    expect(codes({ 'SKILL.md': multiByte })).toEqual(['file_too_large']);
  });

  it('bounds the file count and the total size', () => {
    const many: Record<string, string> = Object.fromEntries([['SKILL.md', 'x'], ...Array.from({ length: SKILL_LIMITS.maxFiles }, (_, index): [string, string] => [`f${index}`, 'x'])]);
    expect(codes(many)).toEqual(['too_many_files']);
    const half = 'x'.repeat(SKILL_LIMITS.maxTotalBytes / 2);
    expect(codes({ 'SKILL.md': half.slice(0, SKILL_LIMITS.maxFileBytes), 'b.md': half.slice(0, SKILL_LIMITS.maxFileBytes), 'c.md': 'x' })).toEqual(['bundle_too_large']);
  });

  it('refuses paths one case-insensitive file system would merge', () => {
    expect(codes({ 'SKILL.md': 'x', 'Notes.md': 'a', 'notes.md': 'b' })).toEqual(['duplicate_path']);
  });
});

describe('agent snapshot skill versions', () => {
  it('default to none for a snapshot written before the skill store', () => {
    const { skillVersions: _skillVersions, ...older } = SAMPLE_AGENT;
    expect(agentSnapshotSchema.parse(older).skillVersions).toEqual([]);
  });

  it('refuse a hash that is not a lowercase hex sha256', () => {
    expect(agentSnapshotSchema.safeParse({ ...SAMPLE_AGENT, skillVersions: [{ name: 'review', hash: 'ABC' }] }).success).toBe(false);
  });
});
