import type { DataSource } from 'typeorm';
import type { ClaimedTask, CommandReply, ResumeDecision, TaskClaimResult } from '@switchyard/contracts';
import { describeCause, sendSessionResolve, type MessagingConnection } from '@switchyard/messaging';
import { ProcessedCommandStore } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';

/** What a claim carries when the session-resume service did not answer in time (or refused). */
export const RESUME_INDEX_UNAVAILABLE: ResumeDecision = { status: 'fresh', reason: 'resume_index_unavailable' };

type ClaimReply = CommandReply<TaskClaimResult>;

export interface ResolveClaimResumesOptions {
  readonly connection: MessagingConnection;
  readonly logger: JsonLogger;
  /** Per request; all tasks of a claim are asked in parallel, so this bounds the whole wait. */
  readonly timeoutMs: number;
}

/**
 * Asks the session-resume service which session each `undecided` task of a committed claim
 * continues, all in parallel. Never fails the claim: no answer, an error reply or a transport
 * failure becomes `fresh` / `resume_index_unavailable` (the work still runs, from scratch).
 */
export async function resolveClaimResumes(reply: ClaimReply, options: ResolveClaimResumesOptions): Promise<{ reply: ClaimReply; changed: boolean }> {
  if (!reply.ok || !reply.result.tasks.some((task) => task.resume.status === 'undecided')) return { reply, changed: false };
  const tasks = await Promise.all(reply.result.tasks.map(async (task) => (task.resume.status === 'undecided' ? { ...task, resume: await resolveOne(task, options) } : task)));
  return { reply: { ...reply, result: { ...reply.result, tasks } }, changed: true };
}

async function resolveOne(task: ClaimedTask, options: ResolveClaimResumesOptions): Promise<ResumeDecision> {
  try {
    const answer = await sendSessionResolve(options.connection, {
      payload: { taskId: task.taskId, agentId: task.agentId, runtimeId: task.runtimeId, source: task.source, forceFreshSession: task.forceFreshSession },
      correlationId: task.taskId,
      timeoutMs: options.timeoutMs,
    });
    if (answer.ok) return answer.result;
    options.logger.warn({ event: 'session_resolve_refused', taskId: task.taskId, error: answer.error }, 'session-resume refused; the task starts fresh');
  } catch (error) {
    options.logger.warn({ event: 'session_resolve_unanswered', taskId: task.taskId, error: describeCause(error) }, 'session-resume did not answer; the task starts fresh');
  }
  return RESUME_INDEX_UNAVAILABLE;
}

/**
 * Keeps the decided claim reply under its request id, so a daemon whose reply was lost gets the
 * same decisions on replay. Outside the claim's transaction and best effort: a replay of a reply
 * still `undecided` is simply resolved again.
 */
export async function storeResolvedClaimReply(options: {
  readonly dataSource: DataSource;
  readonly requestId: string;
  readonly storedReply: CommandReply<unknown>;
  readonly logger: JsonLogger;
}): Promise<void> {
  try {
    await new ProcessedCommandStore(options.dataSource.manager).replace({ requestId: options.requestId, reply: options.storedReply });
  } catch (error) {
    options.logger.warn({ event: 'claim_reply_not_updated', requestId: options.requestId, error: describeCause(error) }, 'decided claim reply not stored; a replay asks again');
  }
}
