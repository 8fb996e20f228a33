import { access } from 'node:fs/promises';
import path from 'node:path';
import type { ProtocolFamily } from '@switchyard/contracts';
import type { SessionStoreState } from './resume.gate';

/**
 * Where Claude Code keeps a session: `<config dir>/projects/<cwd, every character but [A-Za-z0-9]
 * turned into '-'>/<sessionId>.jsonl`, the config dir being `CLAUDE_CONFIG_DIR` or `<HOME>/.claude`.
 * Verified against the real CLI (2.1.x): a cwd `/tmp/probe.cwd_x-8dIpKx/a.b_c d~e` is stored under
 * `-tmp-probe-cwd-x-8dIpKx-a-b-c-d-e`.
 */
export function claudeSessionFilePath(options: { readonly environment: Readonly<Record<string, string>>; readonly workDirectory: string; readonly sessionId: string }): string | null {
  const projectFolder = options.workDirectory.replace(/[^a-zA-Z0-9]/g, '-');
  // Longer names are shortened by the CLI with a hash we do not reproduce: then we do not guess.
  if (projectFolder.length > CLAUDE_PROJECT_FOLDER_MAX_LENGTH) return null;
  const configDirectory = options.environment['CLAUDE_CONFIG_DIR'] ?? path.join(options.environment['HOME'] ?? '', '.claude');
  return path.join(configDirectory, 'projects', projectFolder, `${options.sessionId}.jsonl`);
}

const CLAUDE_PROJECT_FOLDER_MAX_LENGTH = 200;

/**
 * Looks for the CLI's own record of a session in the child's environment. Only Claude Code is
 * checked; Codex and Gemini (and profiles, whose CLI may keep its store elsewhere) are `unverified`:
 * their own rejection of the resume drives the fresh retry.
 */
export async function probeSessionStore(options: {
  readonly protocolFamily: ProtocolFamily;
  readonly isProfile: boolean;
  readonly environment: Readonly<Record<string, string>>;
  readonly workDirectory: string;
  readonly sessionId: string;
}): Promise<SessionStoreState> {
  if (options.protocolFamily !== 'claude-stream-json' || options.isProfile) return { state: 'unverified' };
  const file = claudeSessionFilePath(options);
  if (file === null) return { state: 'unverified' };
  try {
    await access(file);
    return { state: 'present' };
  } catch {
    return { state: 'missing', detail: `no Claude Code session file at ${file}` };
  }
}
