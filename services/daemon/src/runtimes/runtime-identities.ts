import { RUNTIME_IDENTITY_CATALOG, type RuntimeIdentityDescriptor } from '@switchyard/agent-adapters/wing';

/** A CLI the daemon knows how to find, probe and drive. */
export type RuntimeIdentity = Pick<RuntimeIdentityDescriptor, 'identity' | 'displayName' | 'commandName' | 'protocolFamily' | 'provider' | 'versionArgs' | 'probeEnv' | 'modelDiscovery'> & {
  /** Set for a custom runtime profile: its id, and the arguments placed right after the executable. */
  readonly profile?: { readonly profileId: string; readonly fixedArgs: readonly string[] };
};

/** Every built-in identity of the shared runtime catalog, looked up on PATH at each detection. */
export const BUILT_IN_RUNTIME_IDENTITIES: readonly RuntimeIdentity[] = RUNTIME_IDENTITY_CATALOG.map((descriptor) => ({
  identity: descriptor.identity,
  displayName: descriptor.displayName,
  commandName: descriptor.commandName,
  protocolFamily: descriptor.protocolFamily,
  provider: descriptor.provider,
  versionArgs: descriptor.versionArgs,
  ...(descriptor.probeEnv ? { probeEnv: descriptor.probeEnv } : {}),
  modelDiscovery: descriptor.modelDiscovery,
}));

/** The version number inside a CLI's `--version` output (`2.1.197 (Claude Code)`, `codex-cli 0.171.0`). */
export function parseVersion(output: string): string | undefined {
  return /\b(\d+\.\d+\.\d+(?:[-+][\w.]+)?)\b/.exec(output)?.[1];
}
