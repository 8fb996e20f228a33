// The parts of `openclaw agent --json` stdout this adapter reads (openclaw 2026.9.6). stdout holds
// ONE JSON document, written at the end of the turn with `JSON.stringify(value, undefined, 2)`
// (`writeRuntimeJson`, dist/runtime-*.mjs), so it spans many lines; diagnostics go to stderr.
// Embedded (`--local`) runs print the delivery envelope (`emitJsonEnvelope`,
// dist/delivery.runtime-*.mjs); Gateway runs print the Gateway's response, with the same
// `{ payloads, meta }` under `result` (`buildGatewayJsonResponse`, dist/agent-via-gateway-*.mjs);
// CLI-owned failures print `{ ok: false, error: { type: "cli_error", message } }`
// (`formatCliJsonFailure`, dist/failure-output-*.mjs). Everything else is ignored.

export interface OpenClawPayload {
  readonly text?: string | null;
  readonly mediaUrl?: string | null;
  readonly isError?: boolean;
  readonly isReasoning?: boolean;
}

export interface OpenClawUsage {
  readonly input?: number;
  readonly output?: number;
  readonly cacheRead?: number;
  readonly cacheWrite?: number;
  readonly total?: number;
}

export interface OpenClawRunMeta {
  readonly durationMs?: number;
  readonly aborted?: boolean;
  /** `stop` for a finished turn; `toolUse` when the run ended mid tool loop (a timeout). */
  readonly stopReason?: string;
  readonly error?: { readonly message: string; readonly kind?: string } | null;
  readonly agentMeta?: {
    readonly sessionId?: string;
    readonly provider?: string;
    readonly model?: string;
    /** Totals for the whole run. */
    readonly usage?: OpenClawUsage;
  };
  readonly toolSummary?: { readonly calls?: number; readonly tools?: readonly string[]; readonly failures?: number } | null;
}

/** An embedded run's envelope (`--local --json`). */
export interface OpenClawAgentEnvelope {
  readonly payloads: readonly OpenClawPayload[];
  readonly meta?: OpenClawRunMeta;
}

/** A Gateway run's response: `status` is `ok`, `error`, `timeout` or `in_flight`. */
export interface OpenClawGatewayResponse {
  readonly runId?: string;
  readonly status?: string;
  readonly summary?: string;
  readonly result?: OpenClawAgentEnvelope;
}

/** A failure the CLI itself reports (bad flags, Gateway unreachable, ...). */
export interface OpenClawCliFailure {
  readonly ok: false;
  readonly error: { readonly type?: string; readonly message: string };
}
