import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { agentMessageSchema } from '@switchyard/contracts';
import type { TranslatorFactory } from './translator.types';

export const FAKE_CLI_PATH = path.join(__dirname, '..', '__fixtures__', 'fake-cli.js');

/** One behaviour step of the fake CLI (see `__fixtures__/fake-cli.js`). */
export type FakeCliStep =
  | { print: unknown }
  | { printRaw: string }
  | { printBytes: number[] }
  | { sleep: number }
  | { printEnv: true }
  | { printArgs: true }
  | { ignoreSigterm: true }
  | { bigLine: number }
  | { stderrFlood: number }
  | { stderr: string }
  | { spawnGrandchild: { ignoreSigterm?: boolean; holdStdout?: boolean } }
  | { echoStdin: true }
  | { hang: true }
  | { exit: number };

/** The launch of the fake: node as the executable, the script as a profile launch argument. */
export function fakeCliRun(steps: readonly FakeCliStep[]): { executable: string; launchArgs: string[]; adapterArgs: string[]; cwd: string } {
  return { executable: process.execPath, launchArgs: [FAKE_CLI_PATH], adapterArgs: [JSON.stringify(steps)], cwd: tmpdir() };
}

/**
 * A translator for tests: the fake prints unified messages as they are, plus a few fact events
 * (`session`, `usage-report`, `result`, `resume-rejected`) standing in for a vendor protocol.
 */
export const passThroughTranslator: TranslatorFactory = (context) => (event) => {
  const record = event as { type?: string; [key: string]: unknown };
  switch (record.type) {
    case 'session':
      context.reportSessionId(String(record['id']));
      return;
    case 'usage-report':
      context.reportUsage({ model: String(record['model']), inputTokens: Number(record['input']), outputTokens: Number(record['output']) });
      return;
    case 'result':
      context.reportResult({ status: record['status'] === 'failed' ? 'failed' : 'completed', output: typeof record['output'] === 'string' ? record['output'] : '' });
      return;
    case 'resume-rejected':
      context.reportResumeRejected();
      return;
    case 'grandchild':
    case 'env':
    case 'args':
    case 'stdin':
      context.emit({ type: 'status', state: record.type, progress: JSON.stringify(record) });
      return;
    default: {
      const parsed = agentMessageSchema.safeParse(event);
      if (parsed.success) context.emit(parsed.data);
      else context.reportMalformed('unknown event', JSON.stringify(event).slice(0, 100));
    }
  }
};

/** Whether a pid is a live process (a zombie nobody reaped yet counts as gone). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}
