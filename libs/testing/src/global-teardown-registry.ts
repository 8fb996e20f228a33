// globalSetup and globalTeardown run in the same jest parent process; a global joins them even if
// jest loads the two modules through separate module registries.
type Teardown = () => Promise<void>;
const registryKey = Symbol.for('switchyard.testing.teardowns');
const holder = globalThis as typeof globalThis & { [registryKey]?: Teardown[] };

function teardowns(): Teardown[] {
  holder[registryKey] ??= [];
  return holder[registryKey];
}

export function registerTeardown(teardown: Teardown): void {
  teardowns().push(teardown);
}

export async function runTeardowns(): Promise<void> {
  const pending = teardowns();
  while (pending.length > 0) {
    const teardown = pending.pop();
    if (teardown) await teardown();
  }
}
