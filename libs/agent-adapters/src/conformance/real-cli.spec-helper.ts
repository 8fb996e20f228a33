import { existsSync } from 'node:fs';
import path from 'node:path';

const workspaceRoot = path.resolve(__dirname, '../../../..');

/** A real agent CLI installed by `tests/agent-clis` (npm install --prefix tests/agent-clis). */
export function realCli(command: 'claude' | 'codex' | 'gemini' | 'qwen' | 'opencode' | 'pi' | 'copilot'): string {
  const executable = path.join(workspaceRoot, 'tests/agent-clis/node_modules/.bin', command);
  if (!existsSync(executable)) {
    throw new Error(`${command} is not installed: run \`npm install --prefix tests/agent-clis\` (npm install does it for you)`);
  }
  return executable;
}

export { processesWithEnvironment } from '@switchyard/testing';
