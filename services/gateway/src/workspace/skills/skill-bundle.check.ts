import { SKILL_ENTRY_FILE, skillBundleProblems, skillContentHash, type SkillBundleProblem, type SkillFiles } from '@switchyard/contracts';
import { ApiError } from '../common/api-error';
import { readSkillFrontMatter } from './skill-front-matter';

export interface CheckedSkillBundle {
  readonly files: SkillFiles;
  readonly contentHash: string;
  readonly description: string | null;
  readonly fileCount: number;
  readonly sizeBytes: number;
}

type GatewayProblem = SkillBundleProblem | { code: 'invalid_front_matter' | 'front_matter_name_mismatch'; path: string; message: string };

/**
 * A bundle the store may keep as a version: the shared rules (paths, limits, SKILL.md), plus the
 * front matter's name agreeing with the skill's. Every problem is listed; nothing is written.
 */
export function checkSkillBundle(skillName: string, files: SkillFiles): CheckedSkillBundle {
  const problems: GatewayProblem[] = [...skillBundleProblems(files)];
  const entry = files[SKILL_ENTRY_FILE];
  const frontMatter = entry === undefined ? ({ kind: 'none' } as const) : readSkillFrontMatter(entry);
  if (frontMatter.kind === 'invalid') problems.push({ code: 'invalid_front_matter', path: SKILL_ENTRY_FILE, message: `front matter: ${frontMatter.reason}` });
  if (frontMatter.kind === 'fields' && frontMatter.name !== undefined && frontMatter.name !== skillName) {
    problems.push({ code: 'front_matter_name_mismatch', path: SKILL_ENTRY_FILE, message: `front matter name ${JSON.stringify(frontMatter.name)} is not the skill's name ${JSON.stringify(skillName)}` });
  }
  if (problems.length > 0) {
    throw new ApiError('invalid_skill_bundle', problems.map((problem) => problem.message).join('; '), { problems });
  }
  return {
    files,
    contentHash: skillContentHash(files),
    description: frontMatter.kind === 'fields' && frontMatter.description ? frontMatter.description : null,
    fileCount: Object.keys(files).length,
    sizeBytes: Object.values(files).reduce((total, text) => total + Buffer.byteLength(text, 'utf8'), 0),
  };
}
