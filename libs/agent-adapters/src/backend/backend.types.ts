import type { AgentMessage, TokenUsage } from '@switchyard/contracts';
import type { McpArtefacts } from '../mcp/mcp-artefacts.types';
import type { AgentRunError } from '../run-errors/agent-run-error.codes';
import type { ContainmentSweep, RunContainment } from '../runner/run-containment';

export const AGENT_RUN_STATUSES = ['completed', 'failed', 'aborted', 'timeout', 'cancelled'] as const;
export type AgentRunStatus = (typeof AGENT_RUN_STATUSES)[number];

/** Watchdog budgets in milliseconds; an omitted one takes its default, `0` disables it. */
export interface AgentRunTimeouts {
  /** No output and no tool call open. */
  readonly idleMs?: number;
  /** No output while a tool call is open (tool-use seen, its tool-result not yet); at least `idleMs`. */
  readonly toolBudgetMs?: number;
  /** Whole run, from spawn. */
  readonly totalMs?: number;
  /** After the CLI reported its result, how long it may take to exit before it is killed. */
  readonly exitGraceMs?: number;
}

/** Where and how to launch the CLI (from the runtime profile) for one run. */
export interface BackendExecuteOptions {
  readonly cwd: string;
  /** The child's complete environment: nothing of the daemon's own environment is inherited. */
  readonly env: Readonly<Record<string, string>>;
  readonly executable: string;
  /** Fixed profile arguments, placed after the executable and before the adapter's own arguments. */
  readonly launchArgs?: readonly string[];
  readonly model?: string;
  /** The agent's thinking level (`THINKING_LEVELS`), mapped by the family; one it cannot take is said in the timeline. */
  readonly thinkingLevel?: string;
  /** The agent's MCP servers as `writeMcpConfig` prepared them for this CLI; the family's backend hands them over. */
  readonly mcp?: McpArtefacts;
  /** Session to resume; the result says whether the CLI rejected it. */
  readonly resumeSessionId?: string;
  readonly timeouts?: AgentRunTimeouts;
  /** Aborting ends the run with status `aborted` (daemon shutdown, lost claim). */
  readonly signal?: AbortSignal;
  /** The run's process containment (cgroup or marker), made by the daemon for this run. */
  readonly containment?: RunContainment;
}

export interface AgentRunDiagnostics {
  /** Lines that were not valid JSON (or that the translator could not read). */
  readonly malformedLines: number;
  /** Lines over the size cap, dropped while streaming. */
  readonly oversizedLines: number;
  readonly blankLines: number;
  /**
   * Messages (and reported facts: session id, usage, result fields) outside the contract. Each was
   * replaced by an `agent_message_invalid` error message, or, for an unreadable tool input, kept
   * with a placeholder input.
   */
  readonly invalidMessages: number;
}

export interface AgentRunResult {
  readonly status: AgentRunStatus;
  readonly output: string;
  readonly error?: AgentRunError;
  readonly durationMs: number;
  readonly sessionId?: string;
  /** One entry per model, the latest total the CLI reported for it. */
  readonly usage: readonly TokenUsage[];
  /** The CLI refused the resume session id; with `toolRan` false the run may be retried fresh. */
  readonly resumeRejected: boolean;
  /** A tool call started, so a retry could repeat side effects. */
  readonly toolRan: boolean;
  readonly exitCode: number | null;
  readonly exitSignal: string | null;
  readonly diagnostics: AgentRunDiagnostics;
  /** What the run's containment found of its process tree once the CLI was gone: processes it had to end. */
  readonly processSweep?: ContainmentSweep;
}

export interface AgentSession {
  /** Unified messages in order; iterate once. Ends when the CLI's output is drained. */
  readonly messages: AsyncIterable<AgentMessage>;
  /** Always resolves, never rejects: failures are in `status` and `error`. */
  readonly result: Promise<AgentRunResult>;
  /** Only for protocols that accept a user message mid-run. */
  readonly sendUserMessage?: (text: string) => Promise<void>;
  /** Only for protocols that can stop the current turn without ending the session. */
  readonly interrupt?: () => Promise<void>;
  /** Kills the process group; resolves once it is gone. The result becomes `cancelled`. */
  cancel(): Promise<void>;
}

export interface Backend {
  execute(prompt: string, options: BackendExecuteOptions): Promise<AgentSession>;
}
