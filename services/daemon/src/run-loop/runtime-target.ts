import type { LaunchTarget } from '@switchyard/agent-adapters/wing';
import type { DetectedRuntime } from '../runtimes/runtime-detector';

/**
 * A detected runtime as the adapters' wing takes it: a profile's command is known only by its
 * family (identity null), so no identity's workaround or files ever apply to it.
 */
export function launchTargetOf(runtime: DetectedRuntime): LaunchTarget {
  return {
    protocolFamily: runtime.identity.protocolFamily,
    identity: runtime.identity.profile ? null : runtime.identity.identity,
    version: runtime.version,
    executablePath: runtime.executablePath,
  };
}
