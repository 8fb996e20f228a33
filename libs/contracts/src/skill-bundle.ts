import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * A skill is a folder: `SKILL.md` plus other text files, by relative POSIX path. The gateway checks
 * a bundle against these rules before storing a version; the daemon checks the same rules and the
 * hash again before writing one, so neither trusts the other's bytes.
 */
export const SKILL_ENTRY_FILE = 'SKILL.md';

export const SKILL_LIMITS = {
  maxFiles: 100,
  maxFileBytes: 256 * 1024,
  // Below the gateway's 1 MB JSON body even when every byte needs escaping twice over.
  maxTotalBytes: 512 * 1024,
  maxPathLength: 200,
  maxPathSegmentLength: 100,
  maxPathDepth: 8,
} as const;

/** Agent Skills naming, a little wider: letters, digits, `.`, `_`, `-`; the agent's skills list uses it too. */
export const SKILL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A sha256 over the canonical listing of a bundle (`skillContentHash`), lowercase hex. */
export const skillContentHashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'a lowercase hex sha256');

export type SkillFiles = Record<string, string>;

export interface SkillBundle {
  files: SkillFiles;
}
export const skillBundleSchema = z.object({ files: z.record(z.string(), z.string()) });

/** One skill of an agent resolved to the version the task runs with. */
export interface SkillVersionRef {
  name: string;
  hash: string;
}
export const skillVersionRefSchema = z.object({ name: z.string().regex(SKILL_NAME_PATTERN), hash: skillContentHashSchema });

export type SkillBundleProblemCode =
  | 'missing_entry_file'
  | 'too_many_files'
  | 'file_too_large'
  | 'bundle_too_large'
  | 'unsafe_path'
  | 'duplicate_path';

export interface SkillBundleProblem {
  code: SkillBundleProblemCode;
  /** The file the problem is about; absent for whole-bundle problems. */
  path?: string;
  message: string;
}

const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8');

// Control characters, `\` and `:` mean different things on different file systems.
const UNSAFE_PATH_CHARACTERS = /[\u0000-\u001f\u007f\\:]/;

/** Why a path is not a safe relative POSIX path inside the skill folder, or undefined. */
export function unsafeSkillPathReason(relativePath: string): string | undefined {
  if (relativePath === '') return 'is empty';
  if (relativePath.length > SKILL_LIMITS.maxPathLength) return `is longer than ${SKILL_LIMITS.maxPathLength} characters`;
  if (UNSAFE_PATH_CHARACTERS.test(relativePath)) return 'contains a control character, a backslash or a colon';
  if (relativePath.startsWith('/')) return 'is absolute';
  const segments = relativePath.split('/');
  if (segments.length > SKILL_LIMITS.maxPathDepth) return `is deeper than ${SKILL_LIMITS.maxPathDepth} folders`;
  for (const segment of segments) {
    if (segment === '') return 'has an empty segment';
    if (segment === '.' || segment === '..') return 'has a . or .. segment';
    if (segment.length > SKILL_LIMITS.maxPathSegmentLength) return `has a segment longer than ${SKILL_LIMITS.maxPathSegmentLength} characters`;
  }
  return undefined;
}

/** Every rule the bundle breaks; empty when it may be stored and installed. */
export function skillBundleProblems(files: SkillFiles): SkillBundleProblem[] {
  const problems: SkillBundleProblem[] = [];
  const paths = Object.keys(files);
  if (!Object.hasOwn(files, SKILL_ENTRY_FILE)) problems.push({ code: 'missing_entry_file', message: `a skill needs ${SKILL_ENTRY_FILE} at its root` });
  if (paths.length > SKILL_LIMITS.maxFiles) problems.push({ code: 'too_many_files', message: `${paths.length} files; at most ${SKILL_LIMITS.maxFiles}` });
  let totalBytes = 0;
  const seenFolded = new Map<string, string>();
  for (const relativePath of paths.sort()) {
    const reason = unsafeSkillPathReason(relativePath);
    if (reason !== undefined) problems.push({ code: 'unsafe_path', path: relativePath, message: `path ${JSON.stringify(relativePath)} ${reason}` });
    // Two paths one case-insensitive file system would merge.
    const folded = relativePath.toLowerCase();
    const earlier = seenFolded.get(folded);
    if (earlier !== undefined) problems.push({ code: 'duplicate_path', path: relativePath, message: `path ${JSON.stringify(relativePath)} differs from ${JSON.stringify(earlier)} only in case` });
    seenFolded.set(folded, relativePath);
    const bytes = utf8Length(files[relativePath] ?? '');
    totalBytes += bytes;
    if (bytes > SKILL_LIMITS.maxFileBytes) problems.push({ code: 'file_too_large', path: relativePath, message: `${bytes} bytes; at most ${SKILL_LIMITS.maxFileBytes} per file` });
  }
  if (totalBytes > SKILL_LIMITS.maxTotalBytes) problems.push({ code: 'bundle_too_large', message: `${totalBytes} bytes in all; at most ${SKILL_LIMITS.maxTotalBytes}` });
  return problems;
}

/**
 * sha256 over the canonical listing: for each path in UTF-8 byte order, the path, NUL, the content's
 * byte length in decimal, NUL, the content. The length prefix keeps any two bundles apart, so the
 * hash names the content: equal bundles share a version object, a changed byte is a new hash.
 */
export function skillContentHash(files: SkillFiles): string {
  const hash = createHash('sha256');
  const entries = Object.entries(files)
    .map(([relativePath, content]) => ({ path: Buffer.from(relativePath, 'utf8'), content: Buffer.from(content, 'utf8') }))
    .sort((left, right) => Buffer.compare(left.path, right.path));
  for (const entry of entries) {
    hash.update(entry.path);
    hash.update('\0');
    hash.update(String(entry.content.length));
    hash.update('\0');
    hash.update(entry.content);
  }
  return hash.digest('hex');
}

/** The bytes a version is stored as in the skills object store, and read back from. */
export function encodeSkillBundle(files: SkillFiles): Uint8Array {
  const sorted = Object.fromEntries(Object.entries(files).sort(([left], [right]) => Buffer.compare(Buffer.from(left), Buffer.from(right))));
  return Buffer.from(JSON.stringify({ files: sorted } satisfies SkillBundle), 'utf8');
}

export function decodeSkillBundle(bytes: Uint8Array): SkillBundle {
  return skillBundleSchema.parse(JSON.parse(Buffer.from(bytes).toString('utf8')));
}
