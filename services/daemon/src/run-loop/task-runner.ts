import type { AgentRunResult, AgentSession, Backend } from '@switchyard/agent-adapters/wing';
import type { ClaimedTask, RepositoryWorkResult } from '@switchyard/contracts';
import { touchWorkDirectory } from '../exec-env';
import type { DetectedRuntime } from '../runtimes/runtime-detector';
import { keepAttemptLease, type AttemptLease } from './attempt-lease.keeper';
import { describeRepositoryWork } from './repository-work.note';
import { failureMessageOf, failureReasonOf } from './run-outcome.mapper';
import { awaitLocalDirectory, prepareRun } from './run-preparation';
import { pinSession, retireSession } from './session-notices.publisher';
import { createTaskMessageWriter } from './task-message.writer';
import { TaskRepositories } from './task-repositories';
import type { PreparedRun, TaskRun, TaskRunnerDependencies } from './task-run';
import { taskMessageSanitizer } from './task-secrets';
import { refuseTaskOfAnotherWorkspace } from './task-workspace.guard';

export type { TaskRunnerDependencies } from './task-run';

/**
 * Runs one claimed task: the resume decision with its exec env, `task.start`, the CLI through its
 * adapter, every unified message into the outbox with its seq, lease renewals (which also carry a
 * missed cancel), cancel by push, one fresh retry when a resume is rejected before any tool ran,
 * and the terminal report retried until the queue answers.
 */
export async function runClaimedTask(task: ClaimedTask, runtime: DetectedRuntime, dependencies: TaskRunnerDependencies): Promise<void> {
  const run = openTaskRun(task, runtime, dependencies);
  // A cancel or the shutdown while the run is being prepared stops a clone or a wait for a local directory.
  // (Following the session replaces this with the CLI's own cancel.)
  const stopCancelDuringPreparation = dependencies.cancelNotices.onCancel(task.taskId, () => Promise.resolve(run.preparation.abort(new Error('the task was cancelled'))));
  const onShutdown = (): void => run.preparation.abort(new Error('the daemon is shutting down'));
  dependencies.shutdown.addEventListener('abort', onShutdown, { once: true });
  try {
    await runPreparedTask(run);
  } finally {
    dependencies.shutdown.removeEventListener('abort', onShutdown);
    stopCancelDuringPreparation();
    run.repositories.release();
    await releaseWorkDirectory(run);
  }
}

/** The run's work dir was used until now (the GC's age counts from here) and is free for the GC again. */
async function releaseWorkDirectory(run: TaskRun): Promise<void> {
  if (run.workDirectory === '') return;
  try {
    await touchWorkDirectory(run.workDirectory, new Date());
  } catch (error) {
    run.log.warn({ err: error }, 'the work directory marker could not be touched');
  } finally {
    run.dependencies.workDirectoriesInUse?.delete(run.workDirectory);
  }
}

async function runPreparedTask(run: TaskRun): Promise<void> {
  const { task, runtime, dependencies } = run;
  if (await refuseTaskOfAnotherWorkspace({ task, workspaceId: dependencies.workspaceId, log: run.log, report: run.report })) return;
  const backend = dependencies.backendFor(runtime);
  if (!backend) {
    await run.report({ reason: 'exec_env_failed', message: `no adapter for ${runtime.identity.protocolFamily} yet`, sessionId: null, detail: null, durationMs: null });
    return;
  }
  // Renewed from the claim: before the start each renewal pushes the start deadline out, so a slow
  // clone or a wait for a local directory keeps the claim; a renewal that says stop ends the preparation.
  const lease = keepAttemptLease({
    task,
    daemonId: dependencies.daemonId,
    queue: dependencies.queue,
    renewEveryMs: dependencies.renewEveryMs,
    ...(dependencies.liveLeases ? { live: dependencies.liveLeases } : {}),
  });
  try {
    await startAndDrive(run, backend, lease);
  } finally {
    lease.end();
  }
}

async function startAndDrive(run: TaskRun, backend: Backend, lease: AttemptLease): Promise<void> {
  const { task, dependencies } = run;
  const stopPreparing = lease.onStopRequested(() => Promise.resolve(run.preparation.abort(new Error('the queue asked the run to stop'))));
  const prepared = await prepareRun(run).finally(stopPreparing);
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
  const unregister = dependencies.registerAgentRequests?.({
    taskId: task.taskId,
    taskToken: task.taskToken,
    repositories: () => run.repositories.list(),
    checkout: (name) => run.repositories.checkout(name),
  });
  try {
    for (const note of prepared.notes) await run.publishMessage(note);
    const outcome = await driveRun({ run, lease, backend, prepared, cancelRequested: started.result.cancelRequested });
    if (outcome) await reportOutcome(run, outcome.result, outcome.repositories);
  } finally {
    unregister?.();
  }
}

function openTaskRun(task: ClaimedTask, runtime: DetectedRuntime, dependencies: TaskRunnerDependencies): TaskRun {
  const timeline = createTaskMessageWriter({ task, publisher: dependencies.daemonId, outbox: dependencies.outbox, sanitize: taskMessageSanitizer(task) });
  let pinnedSessionId: string | undefined;
  const log = dependencies.logger.child({ taskId: task.taskId, attempt: task.attempt });
  const preparation = new AbortController();
  const run: TaskRun = {
    task,
    runtime,
    dependencies,
    log,
    timeline,
    preparation,
    repositories: new TaskRepositories({
      task,
      services: dependencies.repositories,
      signal: preparation.signal,
      log,
      onLocalDirectoryBusy: (localPath, heldByTaskId) => awaitLocalDirectory(run, localPath, heldByTaskId),
    }),
    workDirectory: '',
    publishMessage: async (message) => {
      if (message.type === 'status' && message.sessionId && message.sessionId !== pinnedSessionId) {
        pinnedSessionId = message.sessionId;
        await pinSession({ task, runtime, sessionId: message.sessionId, workDirectory: run.workDirectory, dependencies });
      }
      await timeline.write(message);
    },
    report: (payload) =>
      dependencies.queue.sendUntilAnswered('task.fail', {
        taskId: task.taskId,
        attempt: task.attempt,
        daemonId: dependencies.daemonId,
        leaseToken: task.leaseToken,
        repositories: [],
        ...payload,
      }),
  };
  return run;
}

/**
 * Starts the CLI and follows it to its result (with one fresh retry when the resume is rejected),
 * then books its usage and closes the timeline. Undefined when the run was already reported.
 */
async function driveRun(options: {
  run: TaskRun;
  lease: AttemptLease;
  backend: Backend;
  prepared: PreparedRun;
  cancelRequested: boolean;
}): Promise<{ result: AgentRunResult; repositories: RepositoryWorkResult[] } | undefined> {
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
      ...(dependencies.containments ? { containment: dependencies.containments.forRun() } : {}),
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
    const refusal = lease.refusal();
    if (refusal) {
      // The queue ended this attempt without us (past the reconnect grace): what the agent did until the stop stays in its timeline.
      await run.publishMessage({ type: 'notice', code: 'attempt_given_up', text: `The queue gave this attempt up while the daemon could not reach it (${refusal.code}: ${refusal.message}); the run was stopped when the daemon heard it.` });
    }
    if (result.processSweep && result.processSweep.swept > 0) {
      run.log.info({ event: 'run_processes_swept', ...result.processSweep }, `ended ${result.processSweep.swept} processes the run left behind (${result.processSweep.mechanism})`);
    }
    // Token totals and the repositories' state go into the timeline for every outcome, so failed and cancelled runs count too.
    for (const usage of result.usage) await run.publishMessage({ type: 'usage', ...usage });
    const repositories = await run.repositories.summarise();
    for (const work of repositories) await run.publishMessage({ type: 'notice', code: 'repository_work', text: describeRepositoryWork(work) });
    await run.timeline.close();
    return { result, repositories };
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
async function reportOutcome(run: TaskRun, result: AgentRunResult, repositories: RepositoryWorkResult[]): Promise<void> {
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
      repositories,
    });
  } else {
    await run.report({
      reason: failureReasonOf(result),
      message: failureMessageOf(result),
      sessionId: result.sessionId ?? null,
      detail: result.error?.stderrTail ?? null,
      durationMs: Math.round(result.durationMs),
      repositories,
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
