import { mcpDeliveryWarning, probeSessionStore, type McpArtefacts, type AgentRunResult, type AgentRunTimeouts, type AgentSession, type Backend } from '@switchyard/agent-adapters/wing';
import type { AgentMessage, ClaimedTask, TaskFailureReason } from '@switchyard/contracts';
import type { MessagingConnection } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import { prepareExecEnv, skillContentFromStore, skillsCacheDirectoryOf, type AgentCallback, type PreparedExecEnv } from '../exec-env';
import type { TaskMessageOutbox } from '../outbox/task-message.outbox';
import type { DetectedRuntime } from '../runtimes/runtime-detector';
import type { CancelNotices } from './daemon-notices.router';
import type { QueueClient } from './queue.client';
import { decideResume } from './resume.decider';
import { failureMessageOf, failureReasonOf } from './run-outcome.mapper';
import { launchTargetOf } from './runtime-target';
import { pinSession, retireSession } from './session-notices.publisher';
import { keepAttemptLease, type AttemptLease } from './attempt-lease.keeper';
import { createTaskMessageWriter, type TaskMessageWriter } from './task-message.writer';
import { refuseTaskOfAnotherWorkspace } from './task-workspace.guard';
import { taskMessageSanitizer } from './task-secrets';

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
  /** How long a run waits for session-resume's answer before it starts fresh. */
  readonly sessionResolveTimeoutMs: number;
  /** Idle watchdog, tool budget and whole-run limit for every run. */
  readonly timeouts: AgentRunTimeouts;
  /** Aborted at daemon shutdown: runs end `aborted` and are reported as such. */
  readonly shutdown: AbortSignal;
  /** What the agent calls back with: the gateway's URL (`SWITCHYARD_API_URL`) and the `yard` shim's folder. */
  readonly callback?: AgentCallback;
}

/** Tells the queue the attempt failed (`task.fail`), retried until it answers. */
type ReportFailure = (payload: { reason: TaskFailureReason; message: string; sessionId: string | null; detail: string | null; durationMs: number | null }) => Promise<unknown>;

/** One claimed task on its way: what every step of the run shares. */
interface TaskRun {
  readonly task: ClaimedTask;
  readonly runtime: DetectedRuntime;
  readonly dependencies: TaskRunnerDependencies;
  readonly log: JsonLogger;
  readonly timeline: TaskMessageWriter;
  /** Into the timeline; the first status naming a session also pins it. */
  readonly publishMessage: (message: AgentMessage) => Promise<void>;
  readonly report: ReportFailure;
  /** Known once the exec env is prepared; a pinned session names it. */
  workDirectory: string;
}

/** What the exec env gave the run: the CLI's environment and prompt, and the session to resume. */
interface PreparedRun {
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

/**
 * Runs one claimed task: the resume decision with its exec env, `task.start`, the CLI through its
 * adapter, every unified message into the outbox with its seq, lease renewals (which also carry a
 * missed cancel), cancel by push, one fresh retry when a resume is rejected before any tool ran,
 * and the terminal report retried until the queue answers.
 */
export async function runClaimedTask(task: ClaimedTask, runtime: DetectedRuntime, dependencies: TaskRunnerDependencies): Promise<void> {
  const run = openTaskRun(task, runtime, dependencies);
  if (await refuseTaskOfAnotherWorkspace({ task, workspaceId: dependencies.workspaceId, log: run.log, report: run.report })) return;
  const backend = dependencies.backendFor(runtime);
  if (!backend) {
    await run.report({ reason: 'exec_env_failed', message: `no adapter for ${runtime.identity.protocolFamily} yet`, sessionId: null, detail: null, durationMs: null });
    return;
  }
  const prepared = await prepareRun(run);
  if (!prepared) return;
  const started = await dependencies.queue.sendUntilAnswered('task.start', {
    taskId: task.taskId,
    attempt: task.attempt,
    daemonId: dependencies.daemonId,
    leaseToken: task.leaseToken,
    workDir: run.workDirectory,
    resumedSessionId: prepared.resumeSessionId ?? null,
  });
  if (!started.ok) {
    run.log.warn({ refusal: started.error }, 'the queue refused the start; dropping the run');
    return;
  }
  const lease = keepAttemptLease({ task, daemonId: dependencies.daemonId, queue: dependencies.queue, renewEveryMs: dependencies.renewEveryMs });
  try {
    for (const note of prepared.notes) await run.publishMessage(note);
    const result = await driveRun({ run, lease, backend, prepared, cancelRequested: started.result.cancelRequested });
    if (result) await reportOutcome(run, result);
  } finally {
    lease.end();
  }
}

function openTaskRun(task: ClaimedTask, runtime: DetectedRuntime, dependencies: TaskRunnerDependencies): TaskRun {
  const timeline = createTaskMessageWriter({ task, publisher: dependencies.daemonId, outbox: dependencies.outbox, sanitize: taskMessageSanitizer(task) });
  let pinnedSessionId: string | undefined;
  const run: TaskRun = {
    task,
    runtime,
    dependencies,
    log: dependencies.logger.child({ taskId: task.taskId, attempt: task.attempt }),
    timeline,
    workDirectory: '',
    publishMessage: async (message) => {
      if (message.type === 'status' && message.sessionId && message.sessionId !== pinnedSessionId) {
        pinnedSessionId = message.sessionId;
        await pinSession({ task, runtime, sessionId: message.sessionId, workDirectory: run.workDirectory, dependencies });
      }
      await timeline.write(message);
    },
    report: (payload) => dependencies.queue.sendUntilAnswered('task.fail', { taskId: task.taskId, attempt: task.attempt, daemonId: dependencies.daemonId, leaseToken: task.leaseToken, ...payload }),
  };
  return run;
}

/** The resume decision with the exec env it needs; a failure is reported `exec_env_failed` and ends the run. */
async function prepareRun(run: TaskRun): Promise<PreparedRun | undefined> {
  const { task, runtime, dependencies } = run;
  try {
    const home = dependencies.homeFor(runtime);
    const runtimeEnvironment = await dependencies.runtimeEnvironmentFor(runtime, task, home);
    const resume = await decideResume({
      task,
      dependencies,
      log: run.log,
      timeoutMs: dependencies.sessionResolveTimeoutMs,
      prepare: (priorWorkDirectory) =>
        prepareExecEnv({
          root: dependencies.workspacesRoot,
          ownerId: dependencies.ownerId,
          task,
          protocolFamily: runtime.identity.protocolFamily,
          runtimeIdentity: launchTargetOf(runtime).identity,
          priorWorkDirectory,
          // The versions the claim names, from this workspace's skills object store through a cache under the daemon's home.
          provideSkill: skillContentFromStore({
            connection: dependencies.connection,
            cacheDirectory: skillsCacheDirectoryOf(dependencies.workspacesRoot),
            workspaceId: dependencies.workspaceId,
            versions: task.agent.skillVersions,
          }),
          home,
          runtimeEnvironment,
          ...(dependencies.callback ? { callback: dependencies.callback } : {}),
        }),
      probeSessionStore: (prepared, sessionId) =>
        probeSessionStore({ target: launchTargetOf(runtime), environment: prepared.environment, workDirectory: prepared.workDirectory, sessionId }),
    });
    const { prepared } = resume;
    run.workDirectory = prepared.workDirectory;
    // CLIs that read no context file get the same brief in front of the prompt.
    const prompt = prepared.inlineRuntimeBrief ? `${prepared.inlineRuntimeBrief}\n\n---\n\n${task.prompt}` : task.prompt;
    return { environment: prepared.environment, prompt, resumeSessionId: resume.resumeSessionId, mcp: prepared.mcp, notes: [...resume.notes, ...preparationWarnings(prepared)] };
  } catch (error) {
    run.log.error({ err: error }, 'preparing the exec env failed');
    await run.report({ reason: 'exec_env_failed', message: error instanceof Error ? error.message : String(error), sessionId: null, detail: null, durationMs: null });
    return undefined;
  }
}

/** What the exec env could not do, said in the timeline. */
function preparationWarnings(prepared: PreparedExecEnv): AgentMessage[] {
  const notes: AgentMessage[] = [];
  // A skill the run goes without is said in the timeline, with why.
  if (prepared.skills.skipped.length > 0) {
    const skipped = prepared.skills.skipped.map((skill) => `${skill.name} (${skill.reason}${skill.detail ? `: ${skill.detail}` : ''})`);
    notes.push({ type: 'log', level: 'warn', text: `skills not installed: ${skipped.join(', ')}` });
  }
  const mcpWarning = mcpDeliveryWarning(prepared.mcp);
  if (mcpWarning) notes.push({ type: 'log', level: 'warn', text: mcpWarning });
  if (prepared.rejectedEnvironmentKeys.length > 0) {
    notes.push({ type: 'log', level: 'warn', text: `agent environment keys refused: ${prepared.rejectedEnvironmentKeys.map((key) => key.key).join(', ')}` });
  }
  return notes;
}

/**
 * Starts the CLI and follows it to its result (with one fresh retry when the resume is rejected),
 * then books its usage and closes the timeline. Undefined when the run was already reported.
 */
async function driveRun(options: { run: TaskRun; lease: AttemptLease; backend: Backend; prepared: PreparedRun; cancelRequested: boolean }): Promise<AgentRunResult | undefined> {
  const { run, lease, backend, prepared } = options;
  const { task, runtime, dependencies } = run;
  const execute = (resume: string | undefined): Promise<AgentSession> =>
    backend.execute(prepared.prompt, {
      cwd: run.workDirectory,
      env: prepared.environment,
      executable: runtime.executablePath,
      ...(task.agent.model ? { model: task.agent.model } : {}),
      // Mapped per family by the adapter; one its CLI cannot take is said in the timeline.
      ...(task.agent.thinkingLevel ? { thinkingLevel: task.agent.thinkingLevel } : {}),
      ...(resume ? { resumeSessionId: resume } : {}),
      mcp: prepared.mcp,
      // A profile's fixed args come first: they are part of how its command is started.
      launchArgs: [...(runtime.identity.profile?.fixedArgs ?? []), ...task.agent.extraArgs],
      timeouts: dependencies.timeouts,
      signal: dependencies.shutdown,
    });
  let session: AgentSession;
  try {
    session = await execute(prepared.resumeSessionId);
  } catch (error) {
    await failBeforeLaunch(run, error);
    return undefined;
  }
  const current = { session };
  try {
    const result = await followWithFreshRetry({ run, lease, execute, current, resumeSessionId: prepared.resumeSessionId, cancelRequested: options.cancelRequested });
    if (!result) return undefined;
    // Token totals go into the timeline for every outcome, so failed and cancelled runs count too.
    for (const usage of result.usage) await run.publishMessage({ type: 'usage', ...usage });
    await run.timeline.close();
    return result;
  } catch (error) {
    // followSession has stopped the CLI already; this also covers a failure after it (usage, close).
    await failUnfollowedRun({ error, run, session: current.session });
    return undefined;
  }
}

/**
 * Follows the session; when the CLI rejected the resume, retires the session and, if no tool ran
 * and it did not carry on by itself, runs once more fresh. Undefined when that fresh start was refused.
 */
async function followWithFreshRetry(options: {
  run: TaskRun;
  lease: AttemptLease;
  execute: (resume: string | undefined) => Promise<AgentSession>;
  /** The session being followed; the fresh retry replaces it. */
  current: { session: AgentSession };
  resumeSessionId: string | undefined;
  cancelRequested: boolean;
}): Promise<AgentRunResult | undefined> {
  const { run, lease, current, resumeSessionId } = options;
  const result = await followSession({ run, lease, session: current.session, cancelAlreadyRequested: options.cancelRequested });
  if (!result.resumeRejected || !resumeSessionId) return result;
  await retireSession({ task: run.task, sessionId: resumeSessionId, reason: 'resume_rejected', message: result.error?.message ?? 'the CLI rejected the resume', dependencies: run.dependencies });
  // A CLI that refuses the session but carries on in a fresh one (DSH) has done the work: no second run.
  if (result.toolRan || result.status === 'completed') return result;
  await run.publishMessage({ type: 'status', state: 'resume_rejected', progress: 'the CLI rejected the session; starting fresh' });
  try {
    current.session = await options.execute(undefined);
  } catch (error) {
    await failBeforeLaunch(run, error);
    return undefined;
  }
  return followSession({ run, lease, session: current.session, cancelAlreadyRequested: false });
}

/** An adapter refuses some options before spawning anything (DSH takes only `provider/model` ids). */
async function failBeforeLaunch(run: TaskRun, error: unknown): Promise<void> {
  const message = `the adapter refused to start the CLI: ${error instanceof Error ? error.message : String(error)}`;
  run.log.warn({ err: error }, 'the adapter refused to start the CLI');
  await run.publishMessage({ type: 'error', code: 'adapter_refused_start', message });
  await run.timeline.close();
  await run.report({ reason: 'agent_error', message, sessionId: null, detail: null, durationMs: null });
}

/** `task.complete` for a completed run, `task.fail` with the reason for any other. */
async function reportOutcome(run: TaskRun, result: AgentRunResult): Promise<void> {
  const { task, dependencies } = run;
  if (result.status === 'completed') {
    await dependencies.queue.sendUntilAnswered('task.complete', {
      taskId: task.taskId,
      attempt: task.attempt,
      daemonId: dependencies.daemonId,
      leaseToken: task.leaseToken,
      sessionId: result.sessionId ?? null,
      output: result.output,
      durationMs: Math.round(result.durationMs),
      usage: [...result.usage],
    });
  } else {
    await run.report({
      reason: failureReasonOf(result),
      message: failureMessageOf(result),
      sessionId: result.sessionId ?? null,
      detail: result.error?.stderrTail ?? null,
      durationMs: Math.round(result.durationMs),
    });
  }
  run.log.info({ event: 'task_run_ended', status: result.status, messages: run.timeline.count }, 'task run ended');
}

/**
 * Streams the session into the outbox while listening for a pushed cancel and for a renewal that
 * says stop (a cancel we missed, or the queue gave the attempt up, e.g. we were offline).
 * If that fails (a message that cannot be published, a bug), the CLI is stopped before the error
 * goes on: a run nobody reports on must not keep working, and renewing its lease, unseen.
 */
async function followSession(options: { run: TaskRun; lease: AttemptLease; session: AgentSession; cancelAlreadyRequested: boolean }): Promise<AgentRunResult> {
  const { run, lease, session } = options;
  const { task, dependencies } = run;
  let stopCancelPush: (() => void) | undefined;
  let stopListeningToLease: (() => void) | undefined;
  try {
    stopCancelPush = dependencies.cancelNotices.onCancel(task.taskId, () => session.cancel());
    if (options.cancelAlreadyRequested) await session.cancel();
    stopListeningToLease = lease.onStopRequested(() => session.cancel());
    for await (const message of session.messages) await run.publishMessage(message);
    return await session.result;
  } catch (error) {
    await session.cancel().catch((cancelError: unknown) => dependencies.logger.error({ err: cancelError, taskId: task.taskId }, 'the CLI could not be stopped'));
    throw error;
  } finally {
    stopListeningToLease?.();
    stopCancelPush?.();
  }
}

/** How much of an unexpected error's text goes into the task's failure (its detail is in the log). */
const MAX_FOLLOW_ERROR_CHARACTERS = 500;

/**
 * Ends a run the daemon could not follow to its end: the failure goes into the log, the timeline
 * (best effort: publishing may be what failed) and the queue, which hears `internal` (a Switchyard
 * defect), or `cancelled_by_shutdown` when the daemon is stopping, so the task is retried.
 */
async function failUnfollowedRun(options: { readonly error: unknown; readonly run: TaskRun; readonly session: AgentSession }): Promise<void> {
  const { error, run } = options;
  const { log } = run;
  const reason = error instanceof Error ? error.message : String(error);
  const message = `the daemon could not follow the run, so it stopped the CLI: ${reason.length > MAX_FOLLOW_ERROR_CHARACTERS ? `${reason.slice(0, MAX_FOLLOW_ERROR_CHARACTERS)}…` : reason}`;
  log.error({ err: error, event: 'run_follow_failed' }, 'following the run failed; the CLI was stopped');
  // Already done when following failed; a no-op on a run that had ended. The result always resolves.
  await options.session.cancel().catch(() => undefined);
  const ended = await options.session.result;
  try {
    await run.publishMessage({ type: 'error', code: 'run_follow_failed', message });
  } catch (publishError) {
    log.warn({ err: publishError }, 'the follow failure could not be written into the timeline');
  }
  await run.timeline.close().catch((closeError: unknown) => log.warn({ err: closeError }, 'the timeline could not be closed cleanly'));
  await run.report({
    reason: run.dependencies.shutdown.aborted ? 'cancelled_by_shutdown' : 'internal',
    message,
    sessionId: ended.sessionId ?? null,
    detail: ended.error?.stderrTail ?? null,
    durationMs: Math.round(ended.durationMs),
  });
}
