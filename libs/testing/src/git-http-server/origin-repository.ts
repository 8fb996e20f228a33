import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

export interface OriginRepository {
  /** The bare repository's absolute path. */
  readonly path: string;
  /** `file://` URL of `path`, as a repository snapshot's `url`. */
  readonly url: string;
  readonly branch: string;
  /** The branch's commit after the last write. */
  readonly headCommit: string;
}

export interface CreateOriginRepositoryOptions {
  /** Where the bare repository is made (created; must not already hold one). */
  directory: string;
  /** Relative path → content of the first commit. */
  files: Record<string, string>;
  /** The default branch; `main` unless given. */
  branch?: string;
}

const GIT_IDENTITY = 'Switchyard Test <test@switchyard.invalid>';

/**
 * A bare repository with one commit of `files` on `branch`, the remote a repository snapshot
 * points at. Written by `git fast-import` in one process, so 10,000 files take well under a
 * second of git work rather than 10,000 `git add`s.
 */
export async function createOriginRepository(options: CreateOriginRepositoryOptions): Promise<OriginRepository> {
  const branch = options.branch ?? 'main';
  await mkdir(options.directory, { recursive: true });
  await runGit(['init', '--quiet', '--bare', `--initial-branch=${branch}`, options.directory]);
  return commitToOrigin({ path: options.directory, branch, files: options.files, message: 'initial commit' });
}

export interface CommitToOriginOptions {
  /** The bare repository. */
  path: string;
  branch: string;
  /** Files written (or overwritten) by the commit; `null` deletes one. */
  files: Record<string, string | null>;
  message: string;
}

/** Adds one commit on top of `branch` (or its first), like a teammate pushing meanwhile. */
export async function commitToOrigin(options: CommitToOriginOptions): Promise<OriginRepository> {
  const ref = `refs/heads/${options.branch}`;
  const parent = await runGit(['--git-dir', options.path, 'rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).catch(() => '');
  const now = Math.floor(Date.now() / 1000);
  const message = Buffer.from(`${options.message}\n`);
  const chunks: Buffer[] = [
    Buffer.from(`commit ${ref}\ncommitter ${GIT_IDENTITY} ${now} +0000\ndata ${message.length}\n`),
    message,
    Buffer.from(parent === '' ? '' : `from ${parent}\n`),
  ];
  for (const [filePath, content] of Object.entries(options.files)) {
    if (content === null) {
      chunks.push(Buffer.from(`D ${filePath}\n`));
      continue;
    }
    const data = Buffer.from(content);
    chunks.push(Buffer.from(`M 100644 inline ${filePath}\ndata ${data.length}\n`), data, Buffer.from('\n'));
  }
  chunks.push(Buffer.from('\n'));
  await runGit(['--git-dir', options.path, 'fast-import', '--quiet', '--done'], Buffer.concat([...chunks, Buffer.from('done\n')]));
  const headCommit = await runGit(['--git-dir', options.path, 'rev-parse', '--verify', `${ref}^{commit}`]);
  return { path: options.path, url: pathToFileURL(options.path).href, branch: options.branch, headCommit };
}

/** `count` small text files spread over folders of 100, for size tests. */
export function generateRepositoryFiles(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let index = 0; index < count; index += 1) {
    const folder = String(Math.floor(index / 100)).padStart(3, '0');
    files[`src/${folder}/file-${String(index).padStart(5, '0')}.txt`] = `file ${index}\nline two\nline three\n`;
  }
  return files;
}

function runGit(args: string[], input?: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout.trim()) : reject(new Error(`git ${args.join(' ')} exited ${code}: ${stderr.trim()}`))));
    child.stdin.end(input);
  });
}
