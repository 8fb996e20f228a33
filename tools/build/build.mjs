// Compiles every project's src/ to dist/ with swc, mirroring the source tree so that the
// rewritten @switchyard/* imports resolve. Takes about a second; tsc is used only to type-check.
import { readdir, mkdir, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const swc = require('@swc/core');
const { swcOptions, workspaceRoot } = require('./swc-options.js');

const sourceRoots = ['libs', 'services', 'tools'];
const outRoot = path.join(workspaceRoot, 'dist');

async function* sourceFiles(directory) {
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === '__fixtures__' || entry.name === 'node_modules') continue;
      yield* sourceFiles(full);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test-d.ts')) {
      yield full;
    }
  }
}

async function projectSourceDirs() {
  const dirs = [];
  for (const root of sourceRoots) {
    const rootDir = path.join(workspaceRoot, root);
    for (const project of await readdir(rootDir, { withFileTypes: true }).catch(() => [])) {
      if (project.isDirectory()) dirs.push(path.join(rootDir, project.name, 'src'));
    }
  }
  return dirs;
}

async function writeAtomically(file, content) {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, content);
  await rename(temporary, file);
}

const started = Date.now();
const options = swcOptions({ rewritePaths: true });
let count = 0;
const jobs = [];
for (const dir of await projectSourceDirs()) {
  try {
    for await (const file of sourceFiles(dir)) {
      jobs.push((async () => {
        const relative = path.relative(workspaceRoot, file);
        const target = path.join(outRoot, relative.replace(/\.ts$/, '.js'));
        const output = await swc.transformFile(file, { ...options, filename: file, sourceFileName: path.relative(path.dirname(target), file) });
        await mkdir(path.dirname(target), { recursive: true });
        // Write then rename: a process loading dist/ while a test rebuilds never sees half a file.
        await writeAtomically(target, `${output.code}\n//# sourceMappingURL=${path.basename(target)}.map\n`);
        if (output.map) await writeAtomically(`${target}.map`, output.map);
        count += 1;
      })());
    }
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
}
await Promise.all(jobs);
process.stderr.write(`build: ${count} files compiled to dist/ in ${Date.now() - started} ms\n`);
