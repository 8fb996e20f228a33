import { createHash } from 'node:crypto';

/**
 * Names this daemon in its runs' markers and cgroups: one per daemon id and installation (home), so
 * a restarted daemon finds what its killed predecessor left, and two daemons on one machine (or a
 * test's many) never sweep each other's runs.
 */
export function containmentScopeOf(options: { readonly daemonId: string; readonly ownerId: string }): string {
  return createHash('sha256').update(`${options.daemonId}\n${options.ownerId}`).digest('hex').slice(0, 16);
}
