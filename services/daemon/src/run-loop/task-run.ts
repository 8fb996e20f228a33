import type { AgentRunTimeouts, Backend, McpArtefacts, RunContainments } from '@switchyard/agent-adapters/wing';
import type { AgentMessage, ClaimedTask, RepositoryWorkResult, TaskFailureReason } from '@switchyard/contracts';
import type { MessagingConnection } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import type { AgentTaskRegistration } from '../agent-requests';
import type { AgentCallback } from '../exec-env';
import type { TaskMessageOutbox } from '../outbox/task-message.outbox';
import type { DetectedRuntime } from '../runtimes/runtime-detector';
import type { LiveAttemptLeases } from './attempt-lease.keeper';
import type { CancelNotices } from './daemon-notices.router';
import type { QueueClient } from './queue.client';
import type { TaskMessageWriter } from './task-message.writer';
import type { RepositoryServices, TaskRepositories } from './task-repositories';

// What one run of a claimed task is made of: the daemon's dependencies, and what every step shares.

export interface TaskRunnerDependencies {
  readonly daemonId: string;
  /** The workspace this daemon enrolled in: a task of any other is refused before its CLI starts. */
  readonly workspaceId: string;
  readonly connection: MessagingConnection;
  readonly queue: QueueClient;
  /** The queue's cancel pushes (`notify.<daemonId>.cancel.<taskId>`), through the daemon's one subscription. */
  readonly cancelNotices: CancelNotices;
  readonly outbox: TaskMessageOutbox;
  readonly logger: JsonLogger;
  readonly workspacesRoot: string;
  readonly ownerId: string;
  /** HOME per runtime: CLIs keep their session stores there, so resumes find them. */
  readonly homeFor: (runtime: DetectedRuntime) => string;
  /** Launcher variables and per-runtime files (telemetry off, sandbox flags, CLI config). */
  readonly runtimeEnvironmentFor: (runtime: DetectedRuntime, task: ClaimedTask, home: string) => Promise<Record<string, string>>;
  readonly backendFor: (runtime: DetectedRuntime) => Backend | undefined;
  readonly renewEveryMs: number;
  /** Makes each run's process containment; none: only the CLI's process group is ended. */
  readonly containments?: RunContainments;
  /** Where each run's lease is listed while it lasts, for the renewals a reconnect sends at once. */
  readonly liveLeases?: LiveAttemptLeases;
  /** How long a run waits for session-resume's answer before it starts fresh. */
  readonly sessionResolveTimeoutMs: number;
  /** Idle watchdog, tool budget and whole-run limit for every run. */
  readonly timeouts: AgentRunTimeouts;
  /** Aborted at daemon shutdown: runs end `aborted` and are reported as such. */
  readonly shutdown: AbortSignal;
  /** What the agent calls back with: the gateway's URL (`SWITCHYARD_API_URL`) and the `yard` shim's folder. */
  readonly callback?: AgentCallback;
  /** The bare clones and local-directory locks every run shares. */
  readonly repositories: RepositoryServices;
  /**
   * The work dirs of the runs in flight (the prior one too while it is being judged), shared by
   * every run: the work-directory GC never removes one of them.
   */
  readonly workDirectoriesInUse?: Set<string>;
  /** Opens the run to the agent's local requests (`yard repo ...`) while it lasts; none when omitted. */
  readonly registerAgentRequests?: (registration: AgentTaskRegistration) => () => void;
}

/** Tells the queue the attempt failed (`task.fail`), retried until it answers. */
export type ReportFailure = (payload: {
  reason: TaskFailureReason;
  message: string;
  sessionId: string | null;
  detail: string | null;
  durationMs: number | null;
  repositories?: RepositoryWorkResult[];
}) => Promise<unknown>;

/** One claimed task on its way: what every step of the run shares. */
export interface TaskRun {
  readonly task: ClaimedTask;
  readonly runtime: DetectedRuntime;
  readonly dependencies: TaskRunnerDependencies;
  readonly log: JsonLogger;
  readonly timeline: TaskMessageWriter;
  /** Into the timeline; the first status naming a session also pins it. */
  readonly publishMessage: (message: AgentMessage) => Promise<void>;
  readonly report: ReportFailure;
  readonly repositories: TaskRepositories;
  /** Aborted by a cancel or the daemon's shutdown: stops a clone or a wait for a local directory. */
  readonly preparation: AbortController;
  /** Known once the exec env is prepared; a pinned session names it. */
  workDirectory: string;
}

/** What the exec env gave the run: the CLI's environment and prompt, and the session to resume. */
export interface PreparedRun {
  readonly environment: Record<string, string>;
  readonly prompt: string;
  readonly resumeSessionId: string | undefined;
  /** The agent's MCP servers in the CLI's native form; its backend hands them over. */
  readonly mcp: McpArtefacts;
  /**
   * Published only once the queue accepted the start: an attempt handed back before it started is
   * run again under the same task id, and its seq must then start from 0 with nothing taken.
   */
  readonly notes: readonly AgentMessage[];
}
