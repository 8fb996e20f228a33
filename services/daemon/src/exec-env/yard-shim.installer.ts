import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The built yard CLI beside the daemon's own build: `dist/services/daemon/src/exec-env` is four
 * folders below `dist/`, which holds `tools/yard-cli/src/main.js` (tools/build/build.mjs).
 */
export const DEFAULT_YARD_ENTRY = path.resolve(__dirname, '../../../../tools/yard-cli/src/main.js');

/** The folder under the daemon's home whose `yard` every agent finds first on its PATH. */
export const AGENT_BIN_FOLDER = ['agent-tools', 'bin'] as const;

const shellQuoted = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * Writes `<home>/agent-tools/bin/yard`, a shell shim running the yard CLI with the daemon's own
 * node (`process.execPath`), so agents need no node of their own on PATH. Rewritten at every boot:
 * a moved installation never leaves a stale shim. Undefined when the yard entry is missing (a
 * daemon run from sources): the agents then get no `yard`, and the brief says so.
 */
export function installYardShim(options: { readonly home: string; readonly nodeExecutable: string; readonly yardEntry: string }): string | undefined {
  if (!existsSync(options.yardEntry)) return undefined;
  const binDirectory = path.resolve(options.home, ...AGENT_BIN_FOLDER);
  mkdirSync(binDirectory, { recursive: true, mode: 0o755 });
  const shim = path.join(binDirectory, 'yard');
  writeFileSync(shim, `#!/bin/sh\n# Written by the Switchyard daemon at boot: the agent's yard, on the daemon's node.\nexec ${shellQuoted(options.nodeExecutable)} ${shellQuoted(options.yardEntry)} "$@"\n`, { mode: 0o755 });
  chmodSync(shim, 0o755);
  return binDirectory;
}
