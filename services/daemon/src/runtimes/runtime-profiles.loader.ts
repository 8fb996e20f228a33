import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { TechnicalError, runtimeProfileSchema, type RuntimeProfile } from '@switchyard/contracts';
import type { RuntimeIdentity } from './runtime-identities';

export const RUNTIME_PROFILE_ERROR_CODES = {
  unreadable: 'unreadable',
  invalid: 'invalid',
} as const;
export type RuntimeProfileErrorCode = keyof typeof RUNTIME_PROFILE_ERROR_CODES;

export class RuntimeProfileError extends TechnicalError<RuntimeProfileErrorCode> {}

const profileFileSchema = z.array(runtimeProfileSchema).superRefine((profiles, context) => {
  const seen = new Set<string>();
  for (const [index, profile] of profiles.entries()) {
    if (seen.has(profile.profileId)) context.addIssue({ code: 'custom', path: [index, 'profileId'], message: `duplicate profile id ${profile.profileId}` });
    seen.add(profile.profileId);
  }
});

/**
 * Reads the daemon's runtime profiles file (a JSON array of `RuntimeProfile`). A broken file is an
 * error, never an empty list: silently dropping profiles would take runtimes offline unnoticed.
 */
export async function loadRuntimeProfiles(file: string): Promise<RuntimeProfile[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new RuntimeProfileError('unreadable', `runtime profiles file ${file} cannot be read`, { isRetryable: true, cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new RuntimeProfileError('invalid', `runtime profiles file ${file} is not JSON`, { isRetryable: false, cause: error });
  }
  const result = profileFileSchema.safeParse(parsed);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
    throw new RuntimeProfileError('invalid', `runtime profiles file ${file} is invalid: ${problems}`, { isRetryable: false });
  }
  return result.data;
}

/** A profile as a runtime identity: found on PATH like a built-in, registered with its profile id. */
export function identityOfProfile(profile: RuntimeProfile): RuntimeIdentity {
  return {
    identity: `profile-${profile.profileId}`,
    displayName: profile.displayName,
    commandName: profile.commandName,
    protocolFamily: profile.protocolFamily,
    provider: null,
    versionArgs: ['--version'],
    // A custom command's model list is unknown: nothing is run to discover it.
    modelDiscovery: null,
    profile: { profileId: profile.profileId, fixedArgs: profile.fixedArgs },
  };
}
