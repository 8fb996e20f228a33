import path from 'node:path';
import { runtimeLayoutFor, type RuntimeTarget } from '@switchyard/agent-adapters/wing';
import { ExecEnvError } from './exec-env.error';
import { splitRelativePath, writeFileInsideIfChanged } from './safe-path.guard';

export const SKILL_ENTRY_FILE = 'SKILL.md';
const MAXIMUM_SKILL_DIRECTORY_LENGTH = 64;

export interface SkillContent {
  /** Skill-folder-relative POSIX paths to file text; must contain `SKILL.md`. */
  files: Record<string, string>;
}

/** A skill the workspace has whose content could not be had or trusted, and why. */
export interface SkillUnavailable {
  /** `access_refused`: the bus would not let this daemon read its workspace's skills. */
  unavailable: 'content_unavailable' | 'access_refused' | 'hash_mismatch' | 'invalid_content';
  detail: string;
}

/** Resolves a skill's files by name; `undefined` when the workspace has no such skill. */
export type SkillContentProvider = (name: string) => Promise<SkillContent | SkillUnavailable | undefined>;

export interface InstalledSkill {
  name: string;
  directoryName: string;
  path: string;
  files: string[];
}

export type SkippedSkillReason = 'invalid_name' | 'duplicate_name' | 'not_found' | 'missing_entry_file' | 'unsafe_file_path' | SkillUnavailable['unavailable'];

export interface SkippedSkill {
  name: string;
  reason: SkippedSkillReason;
  /** What went wrong, when the reason alone does not say. */
  detail?: string;
}

export interface SkillsInstallResult {
  skillsDirectory: string;
  installed: InstalledSkill[];
  skipped: SkippedSkill[];
}

/** Agent Skills naming: lowercase letters, digits and single hyphens, at most 64 characters. */
export function sanitizeSkillName(name: string): string | undefined {
  const directoryName = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAXIMUM_SKILL_DIRECTORY_LENGTH)
    .replace(/-+$/, '');
  return directoryName === '' ? undefined : directoryName;
}

function validFilePaths(files: Record<string, string>): string[] | undefined {
  try {
    const relativePaths = Object.keys(files).sort();
    relativePaths.forEach((relativePath) => splitRelativePath(relativePath));
    return relativePaths;
  } catch (error) {
    if (error instanceof ExecEnvError) return undefined;
    throw error;
  }
}

/**
 * Writes each skill as `<skillsDirectory>/<name>/SKILL.md` (+ its other files) in the folder the
 * target CLI scans. A skill with any unsafe file path is skipped whole rather than half-installed.
 * Only files we are given are written; nothing in the folder is deleted.
 */
export async function installSkills(options: {
  workDirectory: string;
  target: RuntimeTarget;
  skillNames: readonly string[];
  provideSkill: SkillContentProvider;
}): Promise<SkillsInstallResult> {
  const skillsDirectory = runtimeLayoutFor(options.target).skillsDirectory;
  const installed: InstalledSkill[] = [];
  const skipped: SkippedSkill[] = [];
  const usedDirectoryNames = new Set<string>();

  for (const name of options.skillNames) {
    const directoryName = sanitizeSkillName(name);
    if (directoryName === undefined) {
      skipped.push({ name, reason: 'invalid_name' });
      continue;
    }
    if (usedDirectoryNames.has(directoryName)) {
      skipped.push({ name, reason: 'duplicate_name' });
      continue;
    }
    const content = await options.provideSkill(name);
    if (content === undefined) {
      skipped.push({ name, reason: 'not_found' });
      continue;
    }
    if ('unavailable' in content) {
      skipped.push({ name, reason: content.unavailable, detail: content.detail });
      continue;
    }
    if (!Object.hasOwn(content.files, SKILL_ENTRY_FILE)) {
      skipped.push({ name, reason: 'missing_entry_file' });
      continue;
    }
    const relativePaths = validFilePaths(content.files);
    if (relativePaths === undefined) {
      skipped.push({ name, reason: 'unsafe_file_path' });
      continue;
    }
    usedDirectoryNames.add(directoryName);
    const skillFolder = `${skillsDirectory}/${directoryName}`;
    for (const relativePath of relativePaths) {
      await writeFileInsideIfChanged({
        root: options.workDirectory,
        relativePath: `${skillFolder}/${relativePath}`,
        content: content.files[relativePath] ?? '',
      });
    }
    installed.push({ name, directoryName, path: path.join(options.workDirectory, ...skillFolder.split('/')), files: relativePaths });
  }
  return { skillsDirectory: path.join(options.workDirectory, ...skillsDirectory.split('/')), installed, skipped };
}
