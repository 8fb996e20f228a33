/**
 * A runtime's id is its daemon's id, `-`, and the CLI identity (`daemon-3f…-claude-code`). The id
 * says who owns the runtime: a daemon speaks only for runtime ids under its own, so no daemon can
 * register, heartbeat or claim for another's runtime before that daemon does. Enrolled daemon ids
 * (`daemon-` and 20 hex digits) are never a prefix of one another; ids an operator picks should not
 * be either (`a` and `a-b` would share `a-b-…`).
 */
export function runtimeIdOf(daemonId: string, identity: string): string {
  return `${daemonId}-${identity}`;
}

export function isRuntimeOfDaemon(runtimeId: string, daemonId: string): boolean {
  return runtimeId.length > daemonId.length + 1 && runtimeId.startsWith(`${daemonId}-`);
}
