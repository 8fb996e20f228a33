import type { RuntimeProfile } from '@switchyard/contracts';

/** A name two profiles share, whatever its case and spacing. */
const nameKey = (profile: RuntimeProfile): string => profile.displayName.trim().toLowerCase();

/**
 * The profiles this daemon offers: its workspace's (from the gateway) and its local file's. The
 * local file is the machine's override: a workspace profile with the name (display name) or id of
 * a local one is left out, so the local one is what runs.
 */
export function mergeRuntimeProfiles(options: { readonly local: readonly RuntimeProfile[]; readonly workspace: readonly RuntimeProfile[] }): RuntimeProfile[] {
  const localNames = new Set(options.local.map(nameKey));
  const localIds = new Set(options.local.map((profile) => profile.profileId));
  const fromWorkspace = options.workspace.filter((profile) => !localNames.has(nameKey(profile)) && !localIds.has(profile.profileId));
  return [...options.local, ...fromWorkspace];
}
