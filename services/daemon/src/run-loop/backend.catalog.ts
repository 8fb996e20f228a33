import { createAcpBackend, createClaudeStreamJsonBackend, createCodexAppServerBackend, createGeminiAcpBackend, type Backend } from '@switchyard/agent-adapters';
import type { ProtocolFamily } from '@switchyard/contracts';
import type { DetectedRuntime } from '../runtimes/runtime-detector';

/**
 * Which adapter drives a runtime. Built-in identities get their CLI's own backend (with its
 * version-specific workarounds); a profile's custom command gets the plain family backend, so a
 * workaround for one official CLI never applies to it, and its own fixed args say how to start it.
 */
export class BackendCatalog {
  private readonly builtIn = new Map<string, Backend>([
    ['claude-code', createClaudeStreamJsonBackend()],
    ['codex', createCodexAppServerBackend()],
    ['gemini-cli', createGeminiAcpBackend()],
  ]);
  private readonly byFamily = new Map<ProtocolFamily, Backend>([
    ['claude-stream-json', createClaudeStreamJsonBackend()],
    ['codex-app-server', createCodexAppServerBackend()],
    // The profile's fixed args carry the ACP subcommand (`kimi acp`, `qodercli --acp`).
    ['acp', createAcpBackend({ adapterArgs: [] })],
  ]);

  backendFor(runtime: DetectedRuntime): Backend | undefined {
    if (runtime.identity.profile) return this.byFamily.get(runtime.identity.protocolFamily);
    return this.builtIn.get(runtime.identity.identity);
  }

  supports(runtime: DetectedRuntime): boolean {
    return this.backendFor(runtime) !== undefined;
  }
}
