import { continuesConversation, type AgentMessage, type ClaimedTask, type ResumeDecision } from '@switchyard/contracts';
import { describeCause, sendSessionResolve, type MessagingConnection } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import type { PreparedExecEnv } from '../exec-env';
import { decideResumeGate, type SessionStoreState } from './resume.gate';
import { retireSession } from './session-notices.publisher';

/** What a run goes on with when session-resume did not answer in time, refused, or could not be reached. */
export const RESUME_INDEX_UNAVAILABLE: ResumeDecision = { status: 'fresh', reason: 'resume_index_unavailable' };

/** What the gate reads of the prepared exec env. */
export type PreparedWorkDirectory = Pick<PreparedExecEnv, 'workDirectory' | 'reused' | 'reason' | 'reasonDetail'>;

export interface DecideResumeOptions<TPrepared extends PreparedWorkDirectory> {
  readonly task: ClaimedTask;
  /** The daemon's id, connection and logger: the ask and a retirement go through them, as this daemon. */
  readonly dependencies: { readonly daemonId: string; readonly connection: MessagingConnection; readonly logger: JsonLogger };
  /** The run's logger (it names the task and attempt). */
  readonly log: JsonLogger;
  /** Per request to session-resume (`DAEMON_SESSION_RESOLVE_TIMEOUT_MS`). */
  readonly timeoutMs: number;
  /** Prepares the exec env, in the prior work dir when it is still provably ours. */
  readonly prepare: (priorWorkDirectory: string | null) => Promise<TPrepared>;
  /** Whether the CLI's session store (under the prepared env) has the session. */
  readonly probeSessionStore: (prepared: TPrepared, sessionId: string) => Promise<SessionStoreState>;
}

export interface ResumeOutcome<TPrepared> {
  /** What session-resume answered, or `resume_index_unavailable`. */
  readonly decision: ResumeDecision;
  readonly prepared: TPrepared;
  /** The session the CLI is started with; undefined for a fresh start. */
  readonly resumeSessionId: string | undefined;
  /** For the timeline once the start is accepted: `resume_skipped` when the answer could not be kept. */
  readonly notes: readonly AgentMessage[];
}

/**
 * The one resume decision of a run (design §7), in three steps: session-resume says which session
 * the task continues and where it ran; the exec env is prepared, reusing that work dir if it is
 * still ours; the gate keeps the resume only if it was reused and the CLI's store has the session.
 * A session whose store is gone is retired. Never fails the run: without an answer it starts fresh.
 * A failure to prepare the exec env is the caller's to report.
 */
export async function decideResume<TPrepared extends PreparedWorkDirectory>(options: DecideResumeOptions<TPrepared>): Promise<ResumeOutcome<TPrepared>> {
  const { task, log } = options;
  const decision = await askSessionResume(options);
  // A fresh decision may still name the prior work dir: its files (a branch, uncommitted work) carry on.
  const priorWorkDirectory = decision.workDir ?? null;
  const prepared = await options.prepare(priorWorkDirectory);
  const gate = decideResumeGate({
    decision,
    workDirectory: { reused: prepared.reused, reason: prepared.reason, detail: prepared.reasonDetail },
    sessionStore: decision.status === 'resume' && prepared.reused ? await options.probeSessionStore(prepared, decision.sessionId) : { state: 'unverified' },
  });
  if (gate.kind !== 'skip') {
    const notes: AgentMessage[] =
      decision.status === 'fresh' && priorWorkDirectory !== null && !prepared.reused
        ? [{ type: 'notice', code: 'work_dir_fresh', text: `The prior work directory was not reused (${prepared.reason}: ${prepared.reasonDetail}); this run starts in a fresh one.` }]
        : [];
    return { decision, prepared, resumeSessionId: gate.kind === 'resume' ? gate.sessionId : undefined, notes };
  }
  log.warn({ event: 'resume_skipped', sessionId: gate.sessionId, reason: gate.reason, detail: gate.detail }, 'prior session not resumed; starting fresh');
  if (gate.retire) await retireSession({ task, sessionId: gate.sessionId, reason: 'session_store_missing', message: gate.detail, dependencies: options.dependencies });
  // The status for live clients and tests; the notice so the timeline shows the team why.
  const notes: AgentMessage[] = [
    { type: 'status', state: 'resume_skipped', progress: `${gate.reason}: ${gate.detail}; starting fresh` },
    { type: 'notice', code: 'resume_skipped', text: `The prior session was not resumed (${gate.reason}: ${gate.detail}); this run starts a fresh session.` },
  ];
  return { decision, prepared, resumeSessionId: undefined, notes };
}

/**
 * Asks session-resume (`session.resolve`) which session the task continues, unless the task itself
 * says: a forced fresh start, or a source that continues no conversation (no round trip on the
 * dispatch path for quick tasks and autopilot runs). No answer in time, an error reply or a
 * transport failure becomes `fresh` / `resume_index_unavailable`: the work still runs, from scratch.
 */
async function askSessionResume(options: Pick<DecideResumeOptions<PreparedWorkDirectory>, 'task' | 'dependencies' | 'log' | 'timeoutMs'>): Promise<ResumeDecision> {
  const { task, log } = options;
  if (task.forceFreshSession) return { status: 'fresh', reason: 'forced_fresh' };
  if (!continuesConversation(task.source)) return { status: 'fresh', reason: 'no_prior_session' };
  try {
    const answer = await sendSessionResolve(options.dependencies.connection, {
      sender: options.dependencies.daemonId,
      payload: { taskId: task.taskId, agentId: task.agentId, runtimeId: task.runtimeId, source: task.source, forceFreshSession: task.forceFreshSession },
      correlationId: task.taskId,
      timeoutMs: options.timeoutMs,
    });
    if (answer.ok) return answer.result;
    log.warn({ event: 'session_resolve_refused', error: answer.error }, 'session-resume refused; the task starts fresh');
  } catch (error) {
    log.warn({ event: 'session_resolve_unanswered', error: describeCause(error) }, 'session-resume did not answer; the task starts fresh');
  }
  return RESUME_INDEX_UNAVAILABLE;
}
