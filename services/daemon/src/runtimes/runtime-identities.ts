import type { ProtocolFamily } from '@switchyard/contracts';

/** A CLI the daemon knows how to find, probe and drive. */
export interface RuntimeIdentity {
  /** Stable identity, also part of the runtime id (`<daemonId>-<identity>`). */
  readonly identity: string;
  readonly displayName: string;
  /** Executable looked up on PATH. */
  readonly commandName: string;
  readonly protocolFamily: ProtocolFamily;
  readonly provider: string | null;
  /** Arguments that print the version and exit. */
  readonly versionArgs: readonly string[];
  /** Environment the version probe needs so the CLI neither relaunches nor phones home. */
  readonly probeEnv?: Readonly<Record<string, string>>;
  /** Set for a custom runtime profile: its id, and the arguments placed right after the executable. */
  readonly profile?: { readonly profileId: string; readonly fixedArgs: readonly string[] };
}

/** The identities proven on real CLIs so far; issue 7 adds the other families. */
export const BUILT_IN_RUNTIME_IDENTITIES: readonly RuntimeIdentity[] = [
  {
    identity: 'claude-code',
    displayName: 'Claude Code',
    commandName: 'claude',
    protocolFamily: 'claude-stream-json',
    provider: 'anthropic',
    versionArgs: ['--version'],
    probeEnv: { DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
  },
  {
    identity: 'codex',
    displayName: 'Codex',
    commandName: 'codex',
    protocolFamily: 'codex-app-server',
    provider: 'openai',
    versionArgs: ['--version'],
  },
  {
    identity: 'gemini-cli',
    displayName: 'Gemini CLI',
    commandName: 'gemini',
    protocolFamily: 'acp',
    provider: 'google',
    versionArgs: ['--version'],
    probeEnv: { GEMINI_CLI_NO_RELAUNCH: 'true' },
  },
];

/** The version number inside a CLI's `--version` output (`2.1.197 (Claude Code)`, `codex-cli 0.171.0`). */
export function parseVersion(output: string): string | undefined {
  return /\b(\d+\.\d+\.\d+(?:[-+][\w.]+)?)\b/.exec(output)?.[1];
}
