import { z } from 'zod';
import { SKILL_LIMITS, SKILL_NAME_PATTERN } from '@switchyard/contracts';
import { timestampSchema } from '../common/api-schemas';

// Paths and sizes are checked by `skillBundleProblems` (one rule set with the daemon); the
// schema only bounds the shape so a huge body is refused before it is walked.
// A lone UTF-16 surrogate has no UTF-8 form: Postgres would refuse it, and no file could hold it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (text: string): boolean => !LONE_SURROGATE.test(text);

const filesSchema = z
  .record(
    z.string().max(SKILL_LIMITS.maxPathLength).refine(wellFormed, 'must be well-formed Unicode'),
    z
      .string()
      .refine((text) => !text.includes('\0'), 'must not contain NUL')
      .refine(wellFormed, 'must be well-formed Unicode'),
  )
  .describe(`The skill folder: relative POSIX path -> UTF-8 text; \`SKILL.md\` is required (at most ${SKILL_LIMITS.maxFiles} files, ${SKILL_LIMITS.maxFileBytes} bytes each, ${SKILL_LIMITS.maxTotalBytes} in all)`);

export const skillNameSchema = z
  .string()
  .regex(SKILL_NAME_PATTERN, 'skill names are letters, digits, . _ and -, starting with a letter or digit (at most 64)')
  .describe('What agents list in `skills`; the front matter `name` of SKILL.md, when present, must be the same');

export const createSkillSchema = z.strictObject({ name: skillNameSchema, files: filesSchema });
export type CreateSkillInput = z.infer<typeof createSkillSchema>;

export const updateSkillSchema = z.strictObject({ files: filesSchema.describe('The whole folder again: a new version when its content hash differs') });
export type UpdateSkillInput = z.infer<typeof updateSkillSchema>;

export const skillViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable().describe('From the front matter of SKILL.md'),
  version: z.int().describe('The current version; versions are immutable, an update adds one'),
  contentHash: z.string().describe('sha256 (hex) over the canonical listing of paths and bytes'),
  fileCount: z.int(),
  sizeBytes: z.int(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type SkillView = z.infer<typeof skillViewSchema>;

export const skillDetailSchema = skillViewSchema.extend({ files: z.record(z.string(), z.string()) });
export type SkillDetail = z.infer<typeof skillDetailSchema>;

export const skillListSchema = z.object({ skills: z.array(skillViewSchema) });
