import type { Backend } from '../backend/backend.types';
import type { FailureClassifier } from '../failure-classification/failure-evidence';
import type { RuntimeIdentityDescriptor, RuntimeTarget } from './runtime-identity.types';

/** One runtime the daemon detected, as the wing needs it: which CLI, which version, where. */
export interface LaunchTarget extends RuntimeTarget {
  /** The version the daemon detected (`unknown` for a profile's command that prints none). */
  readonly version: string;
  readonly executablePath: string;
}

/** The agent's side of a launch: its own variables (provider endpoint and key) and model. */
export interface LaunchAgent {
  readonly env: Readonly<Record<string, string>>;
  readonly model: string | null;
  /** The agent's thinking level; a family whose provider config must declare a thinking model reads it. */
  readonly thinkingLevel?: string | null;
}

export interface LaunchEnvironmentRequest {
  readonly target: LaunchTarget;
  readonly agent: LaunchAgent;
  /** The runtime's HOME, shared by its runs so resumes find the CLI's session store. */
  readonly home: string;
}

/**
 * What a family's folder does for the daemon (`<family>/<family>.wing.ts`), loaded only once a
 * runtime of the family is driven, so a daemon never holds the code (and SDKs) of families it
 * does not run.
 */
export interface FamilyWing {
  /**
   * The identity's own backend, or the family's plain one for a profile's command. `builtIn` is the
   * catalog's descriptor of the target's identity (undefined for a profile), resolved by the caller
   * so a family's folder never reads the catalog that lists it.
   */
  backendFor(target: LaunchTarget, builtIn: RuntimeIdentityDescriptor | undefined): Backend;
  /**
   * Launcher variables, and the per-runtime files the CLI reads, for an unattended, offline-quiet
   * run; the agent's own variables are layered over them by the caller.
   */
  prepareLaunchEnvironment(request: LaunchEnvironmentRequest): Promise<Record<string, string>>;
  /**
   * Reads a provider's reason (rate limit, auth, context overflow, ...) from what the family's CLIs
   * print when a run fails; without one the shared provider rules apply.
   */
  readonly classifyFailure?: FailureClassifier;
  /** Final outputs that are an error report in disguise (a CLI that prints API errors as its answer). */
  readonly failedOutput?: RegExp;
}

/** A family wing whose identities all share one backend shape and need nothing around the CLI. */
export function plainFamilyWing(backendFor: (target: LaunchTarget, builtIn: RuntimeIdentityDescriptor | undefined) => Backend): FamilyWing {
  return { backendFor, prepareLaunchEnvironment: () => Promise.resolve({}) };
}
