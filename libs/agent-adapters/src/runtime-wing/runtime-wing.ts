import type { Backend } from '../backend/backend.types';
import { builtInIdentityOf } from '../catalog/runtime-identity.catalog';
import type { RuntimeTarget } from '../family-kit/runtime-identity.types';
import { familyWing } from './family-wing.loaders';
import { withFailureClassification } from '../failure-classification/failure-classifying.backend';
import { classifyProviderFailure } from '../failure-classification/provider-failure.rules';
import type { LaunchAgent, LaunchTarget } from '../family-kit/family-wing.types';

/** Whether the wing drives this runtime: a built-in identity of its family, or a profile's command (identity null). */
export function supportsRuntime(target: RuntimeTarget): boolean {
  return !target.identity || builtInIdentityOf(target) !== undefined;
}

/**
 * The backend that drives a runtime: a built-in identity's own (its flags, the workarounds keyed
 * to its detected version), or for a profile's command the plain backend of its family, which no
 * such workaround ever applies to. The family's code is loaded here, on first use. Its failed
 * results carry the provider's reason, read by the family's failure classifier.
 */
export function backendFor(target: LaunchTarget): Backend | undefined {
  if (!supportsRuntime(target)) return undefined;
  const wing = familyWing(target.protocolFamily);
  const backend = wing.backendFor(target, builtInIdentityOf(target));
  return withFailureClassification(backend, { classify: wing.classifyFailure ?? classifyProviderFailure, ...(wing.failedOutput ? { failedOutput: wing.failedOutput } : {}) });
}

/**
 * What the CLI needs around it to run unattended and offline-quiet (shared/agent-clis.md):
 * launcher variables, plus the per-runtime files some CLIs read (Codex's `config.toml`, Gemini's
 * and Qwen's settings, OpenCode's and Pi's provider config) under the runtime's HOME, so resumes
 * find the CLI's session store. The agent's own variables are layered over these by the caller.
 */
export function prepareLaunchEnvironment(request: { readonly target: LaunchTarget; readonly agent: LaunchAgent; readonly home: string }): Promise<Record<string, string>> {
  if (!supportsRuntime(request.target)) return Promise.resolve({});
  return familyWing(request.target.protocolFamily).prepareLaunchEnvironment(request);
}
