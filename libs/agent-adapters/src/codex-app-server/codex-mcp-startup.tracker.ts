/** Codex's startup states of an MCP server (`McpServerStartupState` of the app-server protocol). */
export type CodexMcpStartupState = 'starting' | 'ready' | 'failed' | 'cancelled';

export const CODEX_MCP_STARTUP_NOTIFICATION = 'mcpServer/startupStatus/updated';

/** A server that was not ready when the wait ended: its last state (`unknown`: none reported) and Codex's error. */
export interface CodexMcpServerNotReady {
  readonly name: string;
  readonly state: CodexMcpStartupState | 'unknown';
  readonly error: string | null;
}

export interface CodexMcpStartupTracker {
  /** Feed every notification of the connection; only startup updates are read. */
  onNotification(method: string, params: unknown): void;
  /** Resolves once each named server is ready, failed or cancelled, or after `timeoutMs`, with those not ready. */
  settled(options: { readonly names: readonly string[]; readonly timeoutMs: number }): Promise<CodexMcpServerNotReady[]>;
}

const isFinal = (state: CodexMcpStartupState | undefined): boolean => state === 'ready' || state === 'failed' || state === 'cancelled';

/**
 * Follows Codex's `mcpServer/startupStatus/updated`. Codex starts a thread's MCP servers in the
 * background and sends the turn's first model request without the tools of a server still
 * starting, so the backend waits for them before `turn/start`.
 */
export function createCodexMcpStartupTracker(): CodexMcpStartupTracker {
  const states = new Map<string, { state: CodexMcpStartupState; error: string | null }>();
  const waiters = new Set<() => void>();
  return {
    onNotification(method, params) {
      if (method !== CODEX_MCP_STARTUP_NOTIFICATION || typeof params !== 'object' || params === null) return;
      const { name, status, error } = params as { name?: unknown; status?: unknown; error?: unknown };
      if (typeof name !== 'string' || typeof status !== 'string') return;
      states.set(name, { state: status as CodexMcpStartupState, error: typeof error === 'string' ? error : null });
      for (const wake of waiters) wake();
    },
    settled({ names, timeoutMs }) {
      const allFinal = (): boolean => names.every((name) => isFinal(states.get(name)?.state));
      const notReady = (): CodexMcpServerNotReady[] =>
        names.flatMap((name) => {
          const current = states.get(name);
          return current?.state === 'ready' ? [] : [{ name, state: current?.state ?? 'unknown', error: current?.error ?? null }];
        });
      return new Promise((resolve) => {
        const finish = (): void => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(notReady());
        };
        const check = (): void => {
          if (allFinal()) finish();
        };
        const timer = setTimeout(finish, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}
