import { probeSessionStore, mcpDeliveryWarning } from '@switchyard/agent-adapters/wing';
import type { AgentMessage, TaskFailureReason } from '@switchyard/contracts';
import { prepareExecEnv, skillContentFromStore, skillsCacheDirectoryOf, type PreparedExecEnv } from '../exec-env';
import { RepositoryError } from '../repositories';
import { decideResume } from './resume.decider';
import { launchTargetOf } from './runtime-target';
import type { PreparedRun, TaskRun } from './task-run';

/** The resume decision with the exec env it needs; a failure is reported `exec_env_failed` and ends the run. */
export async function prepareRun(run: TaskRun): Promise<PreparedRun | undefined> {
  const { task, runtime, dependencies } = run;
  try {
    const home = dependencies.homeFor(runtime);
    const runtimeEnvironment = await dependencies.runtimeEnvironmentFor(runtime, task, home);
    const resume = await decideResume({
      task,
      dependencies,
      log: run.log,
      timeoutMs: dependencies.sessionResolveTimeoutMs,
      prepare: async (priorWorkDirectory) => {
        // Held while judged: the GC must not take the prior dir between the judgement and its reuse.
        if (priorWorkDirectory !== null) dependencies.workDirectoriesInUse?.add(priorWorkDirectory);
        try {
          const prepared = await prepareExecEnv({
          root: dependencies.workspacesRoot,
          ownerId: dependencies.ownerId,
          task,
          protocolFamily: runtime.identity.protocolFamily,
          runtimeIdentity: launchTargetOf(runtime).identity,
          priorWorkDirectory,
          prepareRepositories: (workDirectory) => run.repositories.prepareAtStart(workDirectory),
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
          });
          dependencies.workDirectoriesInUse?.add(prepared.workDirectory);
          return prepared;
        } finally {
          if (priorWorkDirectory !== null && priorWorkDirectory !== run.workDirectory) dependencies.workDirectoriesInUse?.delete(priorWorkDirectory);
        }
      },
      probeSessionStore: (prepared, sessionId) =>
        probeSessionStore({ target: launchTargetOf(runtime), environment: prepared.environment, workDirectory: prepared.workDirectory, sessionId }),
    });
    const { prepared } = resume;
    run.workDirectory = prepared.workDirectory;
    // CLIs that read no context file get the same brief in front of the prompt.
    const prompt = prepared.inlineRuntimeBrief ? `${prepared.inlineRuntimeBrief}\n\n---\n\n${task.prompt}` : task.prompt;
    return { environment: prepared.environment, prompt, resumeSessionId: resume.resumeSessionId, mcp: prepared.mcp, notes: [...resume.notes, ...preparationWarnings(prepared)] };
  } catch (error) {
    if (run.preparation.signal.aborted && !dependencies.shutdown.aborted) {
      // Cancelled while being prepared (a clone, a wait for a local directory): the queue has the
      // cancel pending and ends the task cancelled on this report, whatever its reason.
      run.log.info({ event: 'preparation_cancelled' }, 'the task was cancelled while its run was being prepared');
      await run.report({ reason: 'agent_error', message: 'the run was cancelled while it was being prepared', sessionId: null, detail: null, durationMs: null });
      return undefined;
    }
    run.log.error({ err: error }, 'preparing the exec env failed');
    await run.report({ ...preparationFailureOf(error, dependencies.shutdown.aborted), sessionId: null, detail: null, durationMs: null });
    return undefined;
  }
}

/** A repository's own reason (`repo_unavailable`, ...), the shutdown's, or `exec_env_failed`. */
function preparationFailureOf(error: unknown, shuttingDown: boolean): { reason: TaskFailureReason; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  if (shuttingDown) return { reason: 'cancelled_by_shutdown', message: `the daemon shut down while the run was being prepared: ${message}` };
  if (error instanceof RepositoryError) return { reason: error.code === 'repo_branch_invalid' ? 'exec_env_failed' : error.code, message };
  return { reason: 'exec_env_failed', message };
}

/** Tells the queue (and the timeline) that the task waits for a local directory another task works in. */
export async function awaitLocalDirectory(run: TaskRun, localPath: string, heldByTaskId: string): Promise<void> {
  const { task, dependencies } = run;
  run.log.info({ event: 'local_directory_busy', localPath, heldByTaskId }, 'waiting for a local directory another task works in');
  const answer = await dependencies.queue.sendUntilAnswered('task.await_local_directory', {
    taskId: task.taskId,
    attempt: task.attempt,
    daemonId: dependencies.daemonId,
    leaseToken: task.leaseToken,
    localPath,
    heldByTaskId,
  });
  if (!answer.ok) throw new Error(`the queue refused the wait for ${localPath}: ${answer.error.code}`);
  if (answer.result.cancelRequested) run.preparation.abort(new Error('the task was cancelled'));
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
