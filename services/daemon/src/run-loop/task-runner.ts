import { createEvent, subjects, type AgentMessage, type ClaimedTask, type SessionRetireReason, type TaskFailureReason } from '@switchyard/contracts';
import type { AgentRunResult, AgentRunTimeouts, AgentSession, Backend } from '@switchyard/agent-adapters';
import { publish, subscribeNotices, type MessagingConnection } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import { prepareExecEnv } from '../exec-env';
import type { TaskMessageOutbox } from '../outbox/task-message.outbox';
import type { DetectedRuntime } from '../runtimes/runtime-detector';
import type { QueueClient } from './queue.client';
import { decideResumeGate, type ResumeGateVerdict } from './resume.gate';
import { failureReasonOf } from './run-outcome.mapper';
import { probeSessionStore } from './session-store.probe';
import { createTaskMessageWriter } from './task-message.writer';
import { taskMessageSanitizer } from './task-secrets';

export interface TaskRunnerDependencies {
  readonly daemonId: string;
  readonly connection: MessagingConnection;
  readonly queue: QueueClient;
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
  /** Idle watchdog, tool budget and whole-run limit for every run. */
  readonly timeouts: AgentRunTimeouts;
  /** Aborted at daemon shutdown: runs end `aborted` and are reported as such. */
  readonly shutdown: AbortSignal;
}

/** Tells the queue the attempt failed (`task.fail`), retried until it answers. */
type ReportFailure = (payload: { reason: TaskFailureReason; message: string; sessionId: string | null; detail: string | null; durationMs: number | null }) => Promise<unknown>;

/**
 * Runs one claimed task: exec env, `task.start`, the CLI through its adapter, every unified
 * message into the outbox with its seq, lease renewals (which also carry a missed cancel), cancel
 * by push, one fresh retry when a resume is rejected before any tool ran, and the terminal report
 * retried until the queue answers.
 */
export async function runClaimedTask(task: ClaimedTask, runtime: DetectedRuntime, dependencies: TaskRunnerDependencies): Promise<void> {
  const { queue, logger } = dependencies;
  const log = logger.child({ taskId: task.taskId, attempt: task.attempt });
  let pinnedSessionId: string | undefined;
  let workDirectory = '';
  const timeline = createTaskMessageWriter({ task, outbox: dependencies.outbox, sanitize: taskMessageSanitizer(task) });
  const publishMessage = async (message: AgentMessage): Promise<void> => {
    if (message.type === 'status' && message.sessionId && message.sessionId !== pinnedSessionId) {
      pinnedSessionId = message.sessionId;
      await pinSession({ task, runtime, sessionId: message.sessionId, workDirectory, dependencies });
    }
    await timeline.write(message);
  };
  const report: ReportFailure = (payload) =>
    queue.sendUntilAnswered('task.fail', { taskId: task.taskId, attempt: task.attempt, daemonId: dependencies.daemonId, ...payload });

  const backend = dependencies.backendFor(runtime);
  if (!backend) {
    await report({ reason: 'exec_env_failed', message: `no adapter for ${runtime.identity.protocolFamily} yet`, sessionId: null, detail: null, durationMs: null });
    return;
  }

  let environment: Record<string, string>;
  let prompt = task.prompt;
  // Published only once the queue accepted the start: an attempt handed back before it started is
  // run again under the same task id, and its seq must then start from 0 with nothing taken.
  const preparationNotes: AgentMessage[] = [];
  let gate: ResumeGateVerdict;
  try {
    const prepared = await prepareExecEnv({
      root: dependencies.workspacesRoot,
      ownerId: dependencies.ownerId,
      task,
      protocolFamily: runtime.identity.protocolFamily,
      runtimeIdentity: runtime.identity.identity,
      priorWorkDirectory: task.resume.status === 'resume' ? task.resume.workDir : null,
      // Skill contents are not distributed to daemons yet; every named skill is reported as skipped.
      provideSkill: () => Promise.resolve(undefined),
      home: dependencies.homeFor(runtime),
      runtimeEnvironment: await dependencies.runtimeEnvironmentFor(runtime, task, dependencies.homeFor(runtime)),
    });
    workDirectory = prepared.workDirectory;
    environment = prepared.environment;
    // CLIs that read no context file get the same brief in front of the prompt.
    if (prepared.inlineRuntimeBrief) prompt = `${prepared.inlineRuntimeBrief}\n\n---\n\n${task.prompt}`;
    gate = decideResumeGate({
      decision: task.resume,
      workDirectory: { reused: prepared.reused, reason: prepared.reason, detail: prepared.reasonDetail },
      sessionStore:
        task.resume.status === 'resume' && prepared.reused
          ? await probeSessionStore({
              identity: runtime.identity.identity,
              layout: runtime.identity.sessionStore,
              environment,
              workDirectory,
              sessionId: task.resume.sessionId,
            })
          : { state: 'unverified' },
    });
    if (gate.kind === 'skip') {
      log.warn({ event: 'resume_skipped', sessionId: gate.sessionId, reason: gate.reason, detail: gate.detail }, 'prior session not resumed; starting fresh');
      preparationNotes.push({ type: 'status', state: 'resume_skipped', progress: `${gate.reason}: ${gate.detail}; starting fresh` });
      if (gate.retire) await retireSession({ task, sessionId: gate.sessionId, reason: 'session_store_missing', message: gate.detail, dependencies });
    }
    // No skill store exists yet (the gateway's skills come with issue 6): say which were not installed.
    if (prepared.skills.skipped.length > 0) {
      preparationNotes.push({ type: 'log', level: 'warn', text: `skills not installed: ${prepared.skills.skipped.map((skill) => `${skill.name} (${skill.reason})`).join(', ')}` });
    }
    if (prepared.rejectedEnvironmentKeys.length > 0) {
      preparationNotes.push({ type: 'log', level: 'warn', text: `agent environment keys refused: ${prepared.rejectedEnvironmentKeys.map((key) => key.key).join(', ')}` });
    }
  } catch (error) {
    log.error({ err: error }, 'preparing the exec env failed');
    await report({ reason: 'exec_env_failed', message: error instanceof Error ? error.message : String(error), sessionId: null, detail: null, durationMs: null });
    return;
  }

  const resumeSessionId = gate.kind === 'resume' ? gate.sessionId : undefined;
  const started = await queue.sendUntilAnswered('task.start', {
    taskId: task.taskId,
    attempt: task.attempt,
    daemonId: dependencies.daemonId,
    workDir: workDirectory,
    resumedSessionId: resumeSessionId ?? null,
  });
  if (!started.ok) {
    log.warn({ refusal: started.error }, 'the queue refused the start; dropping the run');
    return;
  }
  for (const note of preparationNotes) await publishMessage(note);

  const execute = (resume: string | undefined): Promise<AgentSession> =>
    backend.execute(prompt, {
      cwd: workDirectory,
      env: environment,
      executable: runtime.executablePath,
      ...(task.agent.model ? { model: task.agent.model } : {}),
      ...(resume ? { resumeSessionId: resume } : {}),
      // A profile's fixed args come first: they are part of how its command is started.
      launchArgs: [...(runtime.identity.profile?.fixedArgs ?? []), ...task.agent.extraArgs],
      timeouts: dependencies.timeouts,
      signal: dependencies.shutdown,
    });

  // An adapter refuses some options before spawning anything (DSH takes only `provider/model` ids).
  const failBeforeLaunch = async (error: unknown): Promise<void> => {
    const message = `the adapter refused to start the CLI: ${error instanceof Error ? error.message : String(error)}`;
    log.warn({ err: error }, 'the adapter refused to start the CLI');
    await publishMessage({ type: 'error', code: 'adapter_refused_start', message });
    await timeline.close();
    await report({ reason: 'agent_error', message, sessionId: null, detail: null, durationMs: null });
  };

  let session: AgentSession;
  try {
    session = await execute(resumeSessionId);
  } catch (error) {
    await failBeforeLaunch(error);
    return;
  }
  let result: AgentRunResult;
  try {
    result = await followSession(session, task, dependencies, publishMessage, started.result.cancelRequested);
    if (result.resumeRejected && resumeSessionId) {
      await retireSession({ task, sessionId: resumeSessionId, reason: 'resume_rejected', message: result.error?.message ?? 'the CLI rejected the resume', dependencies });
    }
    // A CLI that refuses the session but carries on in a fresh one (DSH) has done the work: no second run.
    if (result.resumeRejected && !result.toolRan && resumeSessionId && result.status !== 'completed') {
      await publishMessage({ type: 'status', state: 'resume_rejected', progress: 'the CLI rejected the session; starting fresh' });
      try {
        session = await execute(undefined);
      } catch (error) {
        await failBeforeLaunch(error);
        return;
      }
      result = await followSession(session, task, dependencies, publishMessage, false);
    }
    // Token totals go into the timeline for every outcome, so failed and cancelled runs count too.
    for (const usage of result.usage) await publishMessage({ type: 'usage', ...usage });
    await timeline.close();
  } catch (error) {
    // followSession has stopped the CLI already; this also covers a failure after it (usage, close).
    await failUnfollowedRun({ error, session, dependencies, publishMessage, closeTimeline: () => timeline.close(), report, log });
    return;
  }

  if (result.status === 'completed') {
    await queue.sendUntilAnswered('task.complete', {
      taskId: task.taskId,
      attempt: task.attempt,
      daemonId: dependencies.daemonId,
      sessionId: result.sessionId ?? null,
      output: result.output,
      durationMs: Math.round(result.durationMs),
      usage: [...result.usage],
    });
  } else {
    await report({
      reason: failureReasonOf(result),
      message: result.error?.message ?? `run ended ${result.status}`,
      sessionId: result.sessionId ?? null,
      detail: result.error?.stderrTail ?? null,
      durationMs: Math.round(result.durationMs),
    });
  }
  log.info({ event: 'task_run_ended', status: result.status, messages: timeline.count }, 'task run ended');
}

/**
 * Announces the CLI's session as soon as it is known (`session.pinned`), so a crash later in the
 * run still leaves a session the next task can resume. Best effort: the id also travels in the
 * timeline's status message.
 */
async function pinSession(options: {
  readonly task: ClaimedTask;
  readonly runtime: DetectedRuntime;
  readonly sessionId: string;
  readonly workDirectory: string;
  readonly dependencies: TaskRunnerDependencies;
}): Promise<void> {
  const { task, sessionId } = options;
  try {
    const envelope = createEvent({
      type: 'session.pinned',
      payload: { sessionId, taskId: task.taskId, attempt: task.attempt, runtimeId: options.runtime.runtimeId, workDir: options.workDirectory },
    });
    await publish(options.dependencies.connection, {
      subject: subjects.forEvent(envelope),
      data: envelope,
      messageId: `session-pinned:${task.taskId}:${task.attempt}:${sessionId}`,
    });
  } catch (error) {
    options.dependencies.logger.warn({ err: error, taskId: task.taskId, sessionId }, 'session could not be pinned; it stays in the timeline');
  }
}

/**
 * Tells the session-resume index never to offer this session again (`session.retired`): the CLI
 * rejected it (`resume_rejected`), or its store is gone (`session_store_missing`). Best effort: at
 * worst the next task is offered it and the gate or the CLI rejects it again.
 */
async function retireSession(options: {
  readonly task: ClaimedTask;
  readonly sessionId: string;
  readonly reason: Extract<SessionRetireReason, 'resume_rejected' | 'session_store_missing'>;
  readonly message: string;
  readonly dependencies: TaskRunnerDependencies;
}): Promise<void> {
  const { task, sessionId } = options;
  try {
    const envelope = createEvent({ type: 'session.retired', payload: { sessionId, taskId: task.taskId, reason: options.reason, message: options.message } });
    await publish(options.dependencies.connection, {
      subject: subjects.forEvent(envelope),
      data: envelope,
      messageId: `session-retired:${task.taskId}:${task.attempt}:${sessionId}`,
    });
  } catch (error) {
    options.dependencies.logger.warn({ err: error, taskId: task.taskId, sessionId }, 'session could not be retired; the resume may be offered again');
  }
}

/**
 * Streams the session into the outbox while renewing the lease and listening for a pushed cancel.
 * If that fails (a message that cannot be published, a bug), the CLI is stopped before the error
 * goes on: a run nobody reports on must not keep working, and renewing its lease, unseen.
 */
async function followSession(
  session: AgentSession,
  task: ClaimedTask,
  dependencies: TaskRunnerDependencies,
  publishMessage: (message: AgentMessage) => Promise<void>,
  cancelAlreadyRequested: boolean,
): Promise<AgentRunResult> {
  const { connection, queue } = dependencies;
  let cancelPush: { unsubscribe(): void } | undefined;
  let renewal: NodeJS.Timeout | undefined;
  try {
    cancelPush = subscribeNotices(connection, { subject: subjects.taskEvent('task.cancel_requested', task.taskId), max: 1, onNotice: () => session.cancel() });
    if (cancelAlreadyRequested) await session.cancel();
    renewal = setInterval(() => {
      void queue
        .send('task.renew', { taskId: task.taskId, attempt: task.attempt, daemonId: dependencies.daemonId })
        .then(async (reply) => {
          // A cancel we missed, or the queue gave the attempt up (e.g. we were offline): stop now.
          if (!reply.ok || reply.result.cancelRequested) await session.cancel();
        })
        .catch(() => undefined);
    }, dependencies.renewEveryMs);
    for await (const message of session.messages) await publishMessage(message);
    return await session.result;
  } catch (error) {
    await session.cancel().catch((cancelError: unknown) => dependencies.logger.error({ err: cancelError, taskId: task.taskId }, 'the CLI could not be stopped'));
    throw error;
  } finally {
    clearInterval(renewal);
    cancelPush?.unsubscribe();
  }
}

/** How much of an unexpected error's text goes into the task's failure (its detail is in the log). */
const MAX_FOLLOW_ERROR_CHARACTERS = 500;

/**
 * Ends a run the daemon could not follow to its end: the failure goes into the log, the timeline
 * (best effort: publishing may be what failed) and the queue, which hears `internal` (a Switchyard
 * defect), or `cancelled_by_shutdown` when the daemon is stopping, so the task is retried.
 */
async function failUnfollowedRun(options: {
  readonly error: unknown;
  readonly session: AgentSession;
  readonly dependencies: TaskRunnerDependencies;
  readonly publishMessage: (message: AgentMessage) => Promise<void>;
  readonly closeTimeline: () => Promise<void>;
  readonly report: ReportFailure;
  readonly log: JsonLogger;
}): Promise<void> {
  const { error, dependencies, log } = options;
  const reason = error instanceof Error ? error.message : String(error);
  const message = `the daemon could not follow the run, so it stopped the CLI: ${reason.length > MAX_FOLLOW_ERROR_CHARACTERS ? `${reason.slice(0, MAX_FOLLOW_ERROR_CHARACTERS)}…` : reason}`;
  log.error({ err: error, event: 'run_follow_failed' }, 'following the run failed; the CLI was stopped');
  // Already done when following failed; a no-op on a run that had ended. The result always resolves.
  await options.session.cancel().catch(() => undefined);
  const ended = await options.session.result;
  try {
    await options.publishMessage({ type: 'error', code: 'run_follow_failed', message });
  } catch (publishError) {
    log.warn({ err: publishError }, 'the follow failure could not be written into the timeline');
  }
  await options.closeTimeline().catch((closeError: unknown) => log.warn({ err: closeError }, 'the timeline could not be closed cleanly'));
  await options.report({
    reason: dependencies.shutdown.aborted ? 'cancelled_by_shutdown' : 'internal',
    message,
    sessionId: ended.sessionId ?? null,
    detail: ended.error?.stderrTail ?? null,
    durationMs: Math.round(ended.durationMs),
  });
}
