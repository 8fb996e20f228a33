import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  SKILL_LIMITS,
  decodeSkillBundle,
  encodeSkillBundle,
  skillBundleProblems,
  skillContentHash,
  uuidv7,
  workspaceSkillsObjectStore,
  type SkillFiles,
  type SkillVersionRef,
} from '@switchyard/contracts';
import { readObject, type MessagingConnection } from '@switchyard/messaging';
import type { SkillContentProvider, SkillUnavailable } from './skills.installer';

// JSON escaping can at most double... six-fold a byte (`\u0000`); a bigger object is not a skill.
const MAXIMUM_OBJECT_BYTES = SKILL_LIMITS.maxTotalBytes * 6 + 1024;

/** `<SWITCHYARD_HOME>/skills-cache`, beside the workspaces root. */
export function skillsCacheDirectoryOf(workspacesRoot: string): string {
  return path.resolve(workspacesRoot, '..', 'skills-cache');
}

type Verified = { readonly kind: 'ok'; readonly files: SkillFiles } | SkillUnavailable;

/** The bundle's bytes checked against the hash the claim names and against the skill rules. */
function verify(bytes: Uint8Array, expectedHash: string): Verified {
  let files: SkillFiles;
  try {
    files = decodeSkillBundle(bytes).files;
  } catch (error) {
    return { unavailable: 'invalid_content', detail: `the stored version is not a skill bundle (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
  const actualHash = skillContentHash(files);
  if (actualHash !== expectedHash) return { unavailable: 'hash_mismatch', detail: `content hashes to ${actualHash}, the task names ${expectedHash}` };
  const problems = skillBundleProblems(files);
  if (problems.length > 0) return { unavailable: 'invalid_content', detail: problems.map((problem) => problem.message).join('; ') };
  return { kind: 'ok', files };
}

async function readCached(file: string, hash: string): Promise<SkillFiles | undefined> {
  const bytes = await readFile(file).catch(() => undefined);
  if (bytes === undefined) return undefined;
  const verified = verify(bytes, hash);
  if ('kind' in verified) return verified.files;
  // A damaged cache entry is dropped and fetched again.
  await rm(file, { force: true });
  return undefined;
}

async function writeCached(file: string, files: SkillFiles): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  // Renamed into place: a concurrent task never reads half a file.
  const temporary = `${file}.${uuidv7()}.tmp`;
  await writeFile(temporary, encodeSkillBundle(files), { mode: 0o600 });
  await rename(temporary, file);
}

/** The bus refused the read: this daemon's credentials do not cover the workspace's skills bucket. */
function accessRefused(workspaceId: string, detail: string): SkillUnavailable {
  return {
    unavailable: 'access_refused',
    detail: `this daemon's bus credentials grant no read of workspace ${workspaceId}'s skills (they name no workspace, or another): enroll the daemon again (${detail})`,
  };
}

/**
 * Skill contents for one task: each name resolves to the version its claim names
 * (`agent.skillVersions`), read from the cache under the daemon's home or fetched once from its
 * workspace's skills object store (`skills-<workspaceId>`, the only one its credentials may read),
 * and always checked against that version's hash. A name without a version is `not_found`;
 * content that cannot be had, may not be read or does not match is unavailable with the reason.
 */
export function skillContentFromStore(options: {
  readonly connection: MessagingConnection;
  readonly cacheDirectory: string;
  /** The workspace this daemon serves: its bucket is the one read. */
  readonly workspaceId: string;
  readonly versions: readonly SkillVersionRef[];
}): SkillContentProvider {
  const versions = new Map(options.versions.map((version) => [version.name, version.hash]));
  const bucket = workspaceSkillsObjectStore(options.workspaceId).name;
  return async (name) => {
    const hash = versions.get(name);
    if (hash === undefined) return undefined;
    const file = path.join(options.cacheDirectory, `${hash}.json`);
    const cached = await readCached(file, hash);
    if (cached) return { files: cached };
    let read;
    try {
      read = await readObject(options.connection, { bucket, name: hash, maxBytes: MAXIMUM_OBJECT_BYTES });
    } catch (error) {
      return { unavailable: 'content_unavailable', detail: error instanceof Error ? error.message : String(error) };
    }
    if (read.kind === 'refused') return accessRefused(options.workspaceId, read.detail);
    if (read.kind === 'missing') return { unavailable: 'content_unavailable', detail: `version ${hash} is not in the skills store` };
    if (read.kind === 'too_large') return { unavailable: 'invalid_content', detail: `version ${hash} is ${read.size} bytes, more than a skill may be` };
    const verified = verify(read.data, hash);
    if (!('kind' in verified)) return verified;
    await writeCached(file, verified.files);
    return { files: verified.files };
  };
}
