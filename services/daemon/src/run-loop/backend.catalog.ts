import {
  createAcpBackend,
  createAntigravityBackend,
  createClaudeStreamJsonBackend,
  createCodeArtsBackend,
  createCodeBuddyBackend,
  createCodexAppServerBackend,
  createCopilotJsonlBackend,
  createCursorAgentBackend,
  createDevEcoBackend,
  createDshBackend,
  createGeminiAcpBackend,
  createOmpBackend,
  createOpenClawJsonlBackend,
  createOpenCodeBackend,
  createPiBackend,
  createQwenCodeBackend,
  DEFAULT_OPENCODE_PROVIDER_ID,
  type Backend,
} from '@switchyard/agent-adapters';
import { RUNTIME_IDENTITY_CATALOG, type ProtocolFamily, type RuntimeIdentityDescriptor } from '@switchyard/contracts';
import type { DetectedRuntime } from '../runtimes/runtime-detector';

/** Builds the backend for one detected runtime; the detected version lets an adapter pick version-gated flags. */
type BackendFactory = (runtime: DetectedRuntime) => Backend;

/** ACP agents differ only in launch arguments and documented resume method: one shared client. */
const acpIdentityBackend =
  (descriptor: RuntimeIdentityDescriptor): BackendFactory =>
  () =>
    createAcpBackend({
      adapterArgs: descriptor.launchArgs,
      ...(descriptor.provider ? { provider: descriptor.provider } : {}),
      ...(descriptor.acpResumeMethod ? { resumeMethod: descriptor.acpResumeMethod } : {}),
    });

/** Identities whose CLI has its own backend (its flags, its version-specific workarounds). */
const IDENTITY_BACKENDS: Readonly<Record<string, BackendFactory>> = {
  'claude-code': () => createClaudeStreamJsonBackend(),
  codex: () => createCodexAppServerBackend(),
  'gemini-cli': () => createGeminiAcpBackend(),
  'qwen-code': () => createQwenCodeBackend(),
  codebuddy: () => createCodeBuddyBackend(),
  'cursor-agent': () => createCursorAgentBackend(),
  // `--dir` exists from 1.2.1 (and went away in 2.x): the detected version decides.
  opencode: (runtime) => createOpenCodeBackend({ cliVersion: runtime.version, bareModelProvider: DEFAULT_OPENCODE_PROVIDER_ID }),
  deveco: (runtime) => createDevEcoBackend({ cliVersion: runtime.version, bareModelProvider: DEFAULT_OPENCODE_PROVIDER_ID }),
  codearts: (runtime) => createCodeArtsBackend({ cliVersion: runtime.version, bareModelProvider: DEFAULT_OPENCODE_PROVIDER_ID }),
  pi: () => createPiBackend(),
  omp: () => createOmpBackend(),
  copilot: () => createCopilotJsonlBackend(),
  openclaw: () => createOpenClawJsonlBackend(),
  dsh: () => createDshBackend(),
  // Plain text before 1.1.8, stream JSON from it: the detected version decides.
  antigravity: (runtime) => createAntigravityBackend({ cliVersion: runtime.version }),
};

/**
 * The plain backend of each family, for a profile's custom command: no workaround keyed to an
 * official CLI's version ever applies to it, and its own fixed args say how to start it.
 */
const FAMILY_BACKENDS: Record<ProtocolFamily, BackendFactory> = {
  'claude-stream-json': () => createClaudeStreamJsonBackend(),
  'codex-app-server': () => createCodexAppServerBackend(),
  // The profile's fixed args carry the ACP subcommand (`kimi acp`, `qodercli --acp`).
  acp: () => createAcpBackend({ adapterArgs: [] }),
  // Unknown version: no `--dir`, the process cwd and PWD place the run.
  'opencode-ndjson': () => createOpenCodeBackend({ bareModelProvider: DEFAULT_OPENCODE_PROVIDER_ID }),
  'pi-json': () => createPiBackend(),
  'copilot-jsonl': () => createCopilotJsonlBackend(),
  'openclaw-jsonl': () => createOpenClawJsonlBackend(),
  'dsh-jsonl': () => createDshBackend(),
  // A custom command's version is unknown: the oldest, plain-text form is the safe one.
  'antigravity-json': () => createAntigravityBackend(),
};

/** Which adapter drives a runtime: a built-in identity's own backend, or a profile's family backend. */
export class BackendCatalog {
  private readonly byIdentity = new Map<string, BackendFactory>(
    RUNTIME_IDENTITY_CATALOG.flatMap((descriptor): Array<[string, BackendFactory]> => {
      const own = IDENTITY_BACKENDS[descriptor.identity] ?? (descriptor.protocolFamily === 'acp' ? acpIdentityBackend(descriptor) : undefined);
      return own ? [[descriptor.identity, own]] : [];
    }),
  );
  private readonly built = new Map<string, Backend>();

  backendFor(runtime: DetectedRuntime): Backend | undefined {
    const factory = runtime.identity.profile ? FAMILY_BACKENDS[runtime.identity.protocolFamily] : this.byIdentity.get(runtime.identity.identity);
    if (!factory) return undefined;
    // One backend per runtime and version: a re-detected upgrade gets a backend for its version.
    const key = `${runtime.runtimeId}\u0000${runtime.version}`;
    let backend = this.built.get(key);
    if (!backend) {
      backend = factory(runtime);
      this.built.set(key, backend);
    }
    return backend;
  }

  supports(runtime: DetectedRuntime): boolean {
    return this.backendFor(runtime) !== undefined;
  }
}
