/**
 * Keys an agent's `env` may never set: the base the daemon decides (isolation, per-task HOME and
 * temp), daemon infrastructure, and loader/runtime hooks. The gateway refuses them when an agent is
 * written; the daemon drops and reports them should one still arrive (an agent written before).
 */
export const BLOCKED_AGENT_ENVIRONMENT_KEYS: readonly string[] = [
  'PATH',
  'HOME',
  'TMPDIR',
  'TMP',
  'TEMP',
  'TERM',
  'DATABASE_URL',
  'NODE_OPTIONS',
  'BASH_ENV',
  'ENV',
  'CODEX_HOME',
];

/** `SWITCHYARD_` covers the task's own variables and every `SWITCHYARD_DAEMON_*` setting. */
export const BLOCKED_AGENT_ENVIRONMENT_PREFIXES: readonly string[] = ['SWITCHYARD_', 'NATS_', 'LD_', 'DYLD_'];

const BLOCKED_KEY_SET: ReadonlySet<string> = new Set(BLOCKED_AGENT_ENVIRONMENT_KEYS);

export function isBlockedAgentEnvironmentKey(key: string): boolean {
  // Compared upper-cased so `Path` or `ld_preload` cannot slip past on case-insensitive platforms.
  const upper = key.toUpperCase();
  return BLOCKED_KEY_SET.has(upper) || BLOCKED_AGENT_ENVIRONMENT_PREFIXES.some((prefix) => upper.startsWith(prefix));
}
