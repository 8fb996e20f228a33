import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface FakeClaudeInstallation {
  /** Holds `claude`: put it first on the daemon's PATH (`DAEMON_PATH`). */
  readonly directory: string;
  /** The `claude` executable itself (a shell script exec-ing node on `fake-claude.js`). */
  readonly executable: string;
}

/** Installs the fake agent as `claude` in a fresh temporary directory; the caller removes it. */
export function installFakeClaude(): FakeClaudeInstallation {
  const directory = mkdtempSync(path.join(tmpdir(), 'switchyard-fake-claude-'));
  const executable = path.join(directory, 'claude');
  writeFileSync(executable, `#!/bin/sh\nexec "${process.execPath}" "${path.join(__dirname, 'fake-claude.js')}" "$@"\n`);
  chmodSync(executable, 0o755);
  return { directory, executable };
}
