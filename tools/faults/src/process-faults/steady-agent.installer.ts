import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** What the fixture agent does for one task: `events` text messages, one every `intervalMs`, then a result. */
export interface SteadyScript {
  readonly events: number;
  readonly intervalMs: number;
  /** Also double-fork a `sleep` and start a `setsid` one, as agents' dev servers do. */
  readonly escape?: boolean;
}

/** The prompt line the fixture reads its script from. */
export function steadyPrompt(script: SteadyScript, label = 'Emit steadily'): string {
  return `${label} [[steady events=${script.events} interval=${script.intervalMs}${script.escape ? ' escape=1' : ''}]]`;
}

export interface SteadyAgentBin {
  /** Put first on the daemon's `DAEMON_PATH`: it holds `claude`. */
  readonly directory: string;
  remove(): Promise<void>;
}

/** A temp directory whose `claude` runs `__fixtures__/steady-claude.js` (a stream-json stand-in). */
export async function installSteadyClaude(): Promise<SteadyAgentBin> {
  const directory = await mkdtemp(path.join(tmpdir(), 'switchyard-steady-claude-'));
  const fixture = path.join(__dirname, '__fixtures__', 'steady-claude.js');
  await writeFile(path.join(directory, 'claude'), `#!/bin/sh\nexec "${process.execPath}" "${fixture}" "$@"\n`);
  await chmod(path.join(directory, 'claude'), 0o755);
  return { directory, remove: () => rm(directory, { recursive: true, force: true }) };
}
