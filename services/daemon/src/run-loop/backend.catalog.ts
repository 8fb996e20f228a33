import { backendFor, supportsRuntime, type Backend } from '@switchyard/agent-adapters/wing';
import type { DetectedRuntime } from '../runtimes/runtime-detector';
import { launchTargetOf } from './runtime-target';

/**
 * Which adapter drives a runtime, as the adapters' wing says (a built-in identity's own backend,
 * or a profile's family backend), built once per runtime and detected version. The family's code
 * is loaded when its first backend is built, not at boot.
 */
export class BackendCatalog {
  private readonly built = new Map<string, Backend>();

  backendFor(runtime: DetectedRuntime): Backend | undefined {
    // One backend per runtime and version: a re-detected upgrade gets a backend for its version.
    const key = `${runtime.runtimeId}\u0000${runtime.version}`;
    let backend = this.built.get(key);
    if (!backend) {
      backend = backendFor(launchTargetOf(runtime));
      if (backend) this.built.set(key, backend);
    }
    return backend;
  }

  /** Asks the catalog only: claiming for a runtime loads none of its family's code. */
  supports(runtime: DetectedRuntime): boolean {
    return supportsRuntime(launchTargetOf(runtime));
  }
}
