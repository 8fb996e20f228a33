import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { RuntimeTarget } from '@switchyard/agent-adapters/wing';
import { createTemporaryDirectory } from './exec-env.spec-helper';
import { installSkills, sanitizeSkillName, type SkillContent } from './skills.installer';

const LIBRARY: Record<string, SkillContent> = {
  'Release Notes': { files: { 'SKILL.md': '---\nname: release-notes\n---\nWrite notes.', 'scripts/collect.sh': 'git log' } },
  review: { files: { 'SKILL.md': 'Review.' } },
  'no-entry': { files: { 'README.md': 'no SKILL.md' } },
  escape: { files: { 'SKILL.md': 'x', '../../outside.txt': 'pwned' } },
  absolute: { files: { 'SKILL.md': 'x', '/etc/passwd': 'pwned' } },
};
const provideSkill = (name: string): Promise<SkillContent | undefined> => Promise.resolve(LIBRARY[name]);

describe('installSkills', () => {
  let temporary: { path: string; remove: () => Promise<void> };
  beforeEach(async () => {
    temporary = await createTemporaryDirectory();
  });
  afterEach(() => temporary.remove());

  it.each([
    [{ protocolFamily: 'claude-stream-json' }, '.claude/skills'],
    [{ protocolFamily: 'claude-stream-json', identity: 'qwen-code' }, '.qwen/skills'],
    [{ protocolFamily: 'codex-app-server' }, '.agents/skills'],
    [{ protocolFamily: 'acp', identity: 'gemini-cli' }, '.gemini/skills'],
    [{ protocolFamily: 'acp' }, '.agents/skills'],
    [{ protocolFamily: 'opencode-ndjson' }, '.opencode/skills'],
    [{ protocolFamily: 'pi-json' }, '.pi/skills'],
    [{ protocolFamily: 'copilot-jsonl' }, '.github/skills'],
  ] as const)('lands skills in the native folder of %j: %s/<name>/SKILL.md', async (target: RuntimeTarget, folder) => {
    const result = await installSkills({ workDirectory: temporary.path, target, skillNames: ['Release Notes', 'review'], provideSkill });

    expect(result.skillsDirectory).toBe(path.join(temporary.path, folder));
    expect(result.installed.map((skill) => skill.directoryName)).toEqual(['release-notes', 'review']);
    expect(await readFile(path.join(temporary.path, folder, 'release-notes', 'SKILL.md'), 'utf8')).toContain('Write notes.');
    expect(await readFile(path.join(temporary.path, folder, 'release-notes', 'scripts', 'collect.sh'), 'utf8')).toBe('git log');
    expect(await readFile(path.join(temporary.path, folder, 'review', 'SKILL.md'), 'utf8')).toBe('Review.');
  });

  it('skips missing, nameless, duplicate, entry-less and path-escaping skills, reporting why, writing nothing for them', async () => {
    const result = await installSkills({
      workDirectory: temporary.path,
      target: { protocolFamily: 'claude-stream-json' },
      skillNames: ['review', 'Review', 'unknown', '../..', 'no-entry', 'escape', 'absolute'],
      provideSkill,
    });

    expect(result.installed.map((skill) => skill.name)).toEqual(['review']);
    expect(result.skipped).toEqual([
      { name: 'Review', reason: 'duplicate_name' },
      { name: 'unknown', reason: 'not_found' },
      { name: '../..', reason: 'invalid_name' },
      { name: 'no-entry', reason: 'missing_entry_file' },
      { name: 'escape', reason: 'unsafe_file_path' },
      { name: 'absolute', reason: 'unsafe_file_path' },
    ]);
    expect(await readdir(path.join(temporary.path, '.claude/skills'))).toEqual(['review']);
    expect(await readdir(temporary.path)).toEqual(['.claude']);
  });

  it('sanitizes names to lowercase hyphenated directory names', () => {
    expect(sanitizeSkillName('Release Notes!')).toBe('release-notes');
    expect(sanitizeSkillName('../../etc')).toBe('etc');
    expect(sanitizeSkillName('Café  Ünïcode')).toBe('cafe-unicode');
    expect(sanitizeSkillName('...')).toBeUndefined();
    expect(sanitizeSkillName('a'.repeat(100))).toHaveLength(64);
  });
});
