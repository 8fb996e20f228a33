import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const workspaceRoot = path.resolve(__dirname, '../../../..');

/** A real agent CLI installed by `tests/agent-clis` (npm install --prefix tests/agent-clis). */
export function realCli(command: 'claude' | 'codex' | 'gemini'): string {
  const executable = path.join(workspaceRoot, 'tests/agent-clis/node_modules/.bin', command);
  if (!existsSync(executable)) {
    throw new Error(`${command} is not installed: run \`npm install --prefix tests/agent-clis\` (npm install does it for you)`);
  }
  return executable;
}

/** Processes whose environment carries this exact variable, e.g. a run's private HOME (Linux). */
export function processesWithEnvironment(entry: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const environment = readFileSync(`/proc/${name}/environ`, 'latin1').split('\0');
      if (environment.includes(entry)) found.push(Number(name));
    } catch {
      // Gone already, or not ours to read.
    }
  }
  return found;
}
