import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A directory holding `claude` that runs the fake agent: put it first on the daemon's PATH. */
export function installFakeClaude(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'switchyard-fake-claude-'));
  const executable = path.join(directory, 'claude');
  writeFileSync(executable, `#!/bin/sh\nexec "${process.execPath}" "${path.join(__dirname, 'fake-claude.js')}" "$@"\n`);
  chmodSync(executable, 0o755);
  return directory;
}
