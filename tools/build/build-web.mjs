// Builds the web app (apps/web) with Vite into dist/apps/web, which the gateway serves at `/`.
// Skipped when nothing it is built from changed (a hash of its sources is kept beside the build),
// and written to a temporary folder first, then swapped in: a gateway serving the old build never
// sees half of the new one. Prints the size of every chunk (raw and gzipped) and the totals.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const workspaceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const appRoot = path.join(workspaceRoot, 'apps/web');
const outDir = path.join(workspaceRoot, 'dist/apps/web');
const hashFile = path.join(outDir, '.source-hash');

function* filesUnder(directory) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (!/\.spec\.tsx?$/.test(entry.name)) yield full;
  }
}

function sourceHash() {
  const hash = createHash('sha256');
  const inputs = [...filesUnder(path.join(appRoot, 'src')), path.join(appRoot, 'index.html'), path.join(appRoot, 'vite.config.mts'), path.join(workspaceRoot, 'package-lock.json')];
  for (const file of inputs.sort()) hash.update(path.relative(workspaceRoot, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

function report(directory) {
  const rows = [...filesUnder(directory)]
    .filter((file) => /\.(js|css)$/.test(file))
    .map((file) => {
      const content = readFileSync(file);
      return { file: path.relative(directory, file), bytes: content.length, gzipBytes: gzipSync(content).length };
    })
    .sort((left, right) => right.bytes - left.bytes);
  const total = rows.reduce((sum, row) => ({ bytes: sum.bytes + row.bytes, gzipBytes: sum.gzipBytes + row.gzipBytes }), { bytes: 0, gzipBytes: 0 });
  writeFileSync(path.join(directory, 'bundle-report.json'), `${JSON.stringify({ chunks: rows, total }, null, 2)}\n`);
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  for (const row of rows) process.stderr.write(`build-web: ${row.file.padEnd(48)} ${kib(row.bytes).padStart(11)}  gzip ${kib(row.gzipBytes).padStart(10)}\n`);
  process.stderr.write(`build-web: ${rows.length} chunks, ${kib(total.bytes)} (gzip ${kib(total.gzipBytes)}) in all\n`);
}

const started = Date.now();
const hash = sourceHash();
if (existsSync(hashFile) && readFileSync(hashFile, 'utf8') === hash && !process.argv.includes('--force')) {
  process.stderr.write('build-web: up to date\n');
} else {
  const { build } = await import('vite');
  const temporary = `${outDir}.building-${process.pid}`;
  await build({ configFile: path.join(appRoot, 'vite.config.mts'), logLevel: 'warn', build: { outDir: temporary, emptyOutDir: true } });
  writeFileSync(path.join(temporary, '.source-hash'), hash);
  report(temporary);
  const previous = `${outDir}.previous-${process.pid}`;
  if (existsSync(outDir)) renameSync(outDir, previous);
  renameSync(temporary, outDir);
  rmSync(previous, { recursive: true, force: true });
  process.stderr.write(`build-web: built in ${Date.now() - started} ms\n`);
}

