#!/usr/bin/env node
// `npx yard` (the root package's bin): compiles the sources to dist/ first, quietly, so the CLI is
// never older than the checkout; the build's output is shown only when it fails.
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '../../..');
const build = spawnSync(process.execPath, [path.join(root, 'tools/build/build.mjs')], { cwd: root, encoding: 'utf8' });
if (build.status !== 0) {
  process.stderr.write(`yard: building the sources failed\n${build.stdout ?? ''}${build.stderr ?? ''}`);
  process.exit(2);
}
require(path.join(root, 'dist/tools/yard-cli/src/main.js'));
