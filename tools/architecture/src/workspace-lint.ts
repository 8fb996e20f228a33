import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const workspaceRoot = path.resolve(__dirname, '../../..');

export interface LintMessage {
  readonly ruleId: string | null;
  readonly message: string;
}

export interface LintResult {
  readonly messages: LintMessage[];
}

/** The Nx boundary rule reads a cached project graph; computing it takes about a second. */
export function refreshProjectGraph(): void {
  execFileSync(path.join(workspaceRoot, 'node_modules/.bin/nx'), ['show', 'projects'], {
    cwd: workspaceRoot,
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
    stdio: 'ignore',
  });
}

/**
 * Lints `source` as a file in `directory` (relative to the repository) with the repository's own
 * config. Type-aware rules need the file on disk inside a tsconfig, so it is written there for the
 * duration of the lint and always removed.
 */
export async function lintProbe(directory: string, source: string): Promise<LintResult> {
  const relativePath = path.join(directory, `lint-probe-${randomBytes(4).toString('hex')}.ts`);
  const absolutePath = path.join(workspaceRoot, relativePath);
  await writeFile(absolutePath, source);
  try {
    return await runEslint(relativePath);
  } finally {
    await rm(absolutePath, { force: true });
  }
}

/** ESLint runs in a child process: its flat config is an ES module, which jest's VM cannot import. */
function runEslint(relativePath: string): Promise<LintResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(workspaceRoot, 'node_modules/eslint/bin/eslint.js'), '--format', 'json', relativePath],
      { cwd: workspaceRoot, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        // Exit code 1 means "lint errors found", which is what most probes expect.
        if (error && error.code !== 1) {
          reject(new Error(`eslint failed (${String(error.code)}): ${stderr}`));
          return;
        }
        const [result] = JSON.parse(stdout) as LintResult[];
        if (!result) reject(new Error(`eslint returned no result for ${relativePath}`));
        else resolve(result);
      },
    );
  });
}
