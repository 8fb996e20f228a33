import { trace } from '@opentelemetry/api';
import type { EntityManager } from 'typeorm';
import type { AlongsideStatement } from '@switchyard/event-store';
import { bundleIdOfSecretRef, secretRefsOf, type ClaimedTask, type TaskClaimPayload, type TraceContextFields } from '@switchyard/contracts';
import { SPAN_ATTRIBUTES } from '@switchyard/telemetry';
import { headersFromRecord, headersToRecord, injectTraceContext } from '@switchyard/messaging';
import { readSecretBundles } from '../storage/task-secrets.store';
import { initialTaskState } from '../domain/task.decider';
import type { Task, TaskDeciderState } from '../domain/task.state';
import { appendTaskDecisions, decideTaskCommand, loadTasks, type CommandCause, type PendingTaskDecision } from '../storage/task.repository';
import { hashLeaseToken, mintLeaseToken } from '../storage/lease-token';
import { deriveTaskToken, taskTokensStatement } from '../storage/task-token';
import type { SecretKeyring } from '@switchyard/persistence';
import { sealClaimedAgent } from './claimed-task-secrets';
import { agentIssueKey, lockClaimCandidates, readActiveWork, type ActiveWork, type ClaimCandidate } from './claim-candidates.query';
import { inTaskClaimSpan } from './task-claim.span';

export interface ClaimTasksOptions {
  /** The command's transaction: the claim commits with its idempotency record. */
  readonly manager: EntityManager;
  readonly payload: TaskClaimPayload;
  readonly cause: CommandCause;
  readonly now: Date;
  readonly startDeadlineMs: number;
  readonly defaultMaxConcurrentTasks: number;
  readonly taskTokens: { readonly secret: string; readonly ttlMs: number };
  /** Opens the tasks' secret bundles; their values are sealed again to the payload's `sealingKey`. */
  readonly secretKeyring: SecretKeyring;
  /** Told the bundles that did not open (a key no longer configured): their runs will fail. */
  readonly onUnreadableBundles?: (bundleIds: readonly string[]) => void;
  /** Statements that keep the claim's reply, sent with its writes (see `ReplyRecord`). */
  readonly keepReply?: (tasks: ClaimedTask[]) => readonly AlongsideStatement[];
}

/** Candidates read per claim beyond what the daemon asked for, to step over blocked ones. */
const CANDIDATE_HEADROOM = 4;
const MAX_CANDIDATES = 256;

/**
 * Hands a daemon up to `maxTasks` queued tasks of its runtimes (the caller has kept only those the
 * daemon registered), in the caller's transaction: rows locked
 * with SKIP LOCKED (one winner per task), agents locked in a global order, limits checked
 * (maxConcurrentTasks, one active task per agent+issue and per chat session), each claim decided
 * and appended with its projection, and each attempt given a fresh lease token.
 */
export async function claimTasks(options: ClaimTasksOptions): Promise<ClaimedTask[]> {
  const now = options.now.toISOString();
  const startBy = new Date(options.now.getTime() + options.startDeadlineMs).toISOString();
  const { manager } = options;
  const candidates = await lockClaimCandidates(manager, {
    runtimeIds: options.payload.runtimeIds,
    now,
    limit: Math.min(MAX_CANDIDATES, options.payload.maxTasks * CANDIDATE_HEADROOM),
  });
  if (candidates.length === 0) {
    trace.getActiveSpan()?.setAttribute(SPAN_ATTRIBUTES.claimedTasks, 0);
    return [];
  }
  const work = await readActiveWork(manager, candidates.map((candidate) => candidate.agentId));
  // The candidates the limits let through, in order, up to what the daemon asked for: only their
  // events are read, in one read. (A decision refused on those events, which the row said was
  // queued, leaves its place empty in this claim.) A writer in between makes the append conflict,
  // and the whole claim is run again on fresh state.
  const chosen: ClaimCandidate[] = [];
  for (const candidate of candidates) {
    if (chosen.length >= options.payload.maxTasks) break;
    if (!hasFreeSlot(candidate, work, options.defaultMaxConcurrentTasks)) continue;
    takeSlot(candidate, work);
    chosen.push(candidate);
  }
  const loaded = await loadTasks(manager, chosen.map((candidate) => candidate.taskId));
  const claimed: ClaimedAttempt[] = [];
  const decisions: PendingTaskDecision[] = [];
  for (const candidate of chosen) {
    const task = loaded.get(candidate.taskId);
    const decided = await inTaskClaimSpan({ taskId: candidate.taskId, originHeaders: task?.originHeaders }, (traceContext) =>
      Promise.resolve(decideClaim({ options, candidate, now, startBy, state: task?.state ?? initialTaskState(), traceContext })),
    );
    if (!decided) continue;
    claimed.push(decided.attempt);
    decisions.push(decided.pending);
  }
  trace.getActiveSpan()?.setAttribute(SPAN_ATTRIBUTES.claimedTasks, claimed.length);
  // One read for every claimed task's secret bundles; each task's values are then sealed to the daemon.
  const bundles = await readSecretBundles(
    manager,
    options.secretKeyring,
    claimed.flatMap(({ state }) => secretRefsOf(state.agent).map(bundleIdOfSecretRef)),
  );
  if (bundles.unreadable.length > 0) options.onUnreadableBundles?.(bundles.unreadable);
  const tasks = claimed.map(({ state, taskToken, leaseToken, traceContext }) =>
    toClaimedTask(state, {
      startBy,
      taskToken,
      leaseToken,
      ...(traceContext ? { traceContext } : {}),
      ...sealClaimedAgent({ agent: state.agent, values: bundles.values, attemptRef: `${state.taskId}.${state.attempt}`, sealingKey: options.payload.sealingKey }),
    }),
  );
  // The batch's writes, one statement however many tasks it claimed: events, rows with their lease
  // token hashes, task tokens, and the reply kept for a retried request.
  await appendTaskDecisions({
    manager,
    cause: options.cause,
    decisions,
    leaseTokenHashes: new Map(claimed.map(({ state, leaseToken }) => [state.taskId, hashLeaseToken(leaseToken)])),
    alongside: [
      taskTokensStatement({ tokens: claimed.map(({ state, taskToken }) => ({ taskId: state.taskId, attempt: state.attempt, token: taskToken })), issuedAt: options.now, ttlMs: options.taskTokens.ttlMs }),
      ...(decisions.length > 0 ? (options.keepReply?.(tasks) ?? []) : []),
    ],
  });
  return tasks;
}

interface ClaimedAttempt {
  readonly state: Task;
  readonly taskToken: string;
  readonly leaseToken: string;
  readonly traceContext: TraceContextFields | undefined;
}

/**
 * Decides one candidate's claim and mints its attempt's tokens, in the task's claim span (whose
 * context the events are stored with); undefined when refused. Nothing is written yet.
 */
function decideClaim(input: {
  readonly options: ClaimTasksOptions;
  readonly candidate: ClaimCandidate;
  readonly now: string;
  readonly startBy: string;
  readonly state: TaskDeciderState;
  readonly traceContext: () => TraceContextFields | undefined;
}): { readonly attempt: ClaimedAttempt; readonly pending: PendingTaskDecision } | undefined {
  const { options, candidate, now, startBy } = input;
  const command = { kind: 'claim', taskId: candidate.taskId, now, daemonId: options.payload.daemonId, runtimeIds: options.payload.runtimeIds, startBy } as const;
  const { decision, pending } = decideTaskCommand(command, input.state, headersToRecord(injectTraceContext(headersFromRecord({}))));
  if (!decision.ok || !pending) return undefined;
  const state = pending.after;
  const taskToken = deriveTaskToken(options.taskTokens.secret, state.taskId, state.attempt);
  return { attempt: { state, taskToken, leaseToken: mintLeaseToken(), traceContext: input.traceContext() }, pending };
}

function hasFreeSlot(candidate: ClaimCandidate, work: ActiveWork, defaultLimit: number): boolean {
  const limit = work.limitByAgent.get(candidate.agentId) ?? defaultLimit;
  if ((work.activeByAgent.get(candidate.agentId) ?? 0) >= limit) return false;
  if (candidate.issueId !== null && work.busyAgentIssues.has(agentIssueKey(candidate.agentId, candidate.issueId))) return false;
  if (candidate.chatSessionId !== null && work.busyChatSessions.has(candidate.chatSessionId)) return false;
  return true;
}

function takeSlot(candidate: ClaimCandidate, work: ActiveWork): void {
  work.activeByAgent.set(candidate.agentId, (work.activeByAgent.get(candidate.agentId) ?? 0) + 1);
  if (candidate.issueId !== null) work.busyAgentIssues.add(agentIssueKey(candidate.agentId, candidate.issueId));
  if (candidate.chatSessionId !== null) work.busyChatSessions.add(candidate.chatSessionId);
}

function toClaimedTask(
  task: Task,
  claim: Pick<ClaimedTask, 'startBy' | 'taskToken' | 'leaseToken' | 'agent' | 'sealedSecrets' | 'traceContext'>,
): ClaimedTask {
  return {
    taskId: task.taskId,
    attempt: task.attempt,
    workspaceId: task.workspaceId,
    agentId: task.agentId,
    runtimeId: task.runtimeId,
    source: task.source,
    prompt: task.prompt,
    forceFreshSession: task.forceFreshSession,
    startBy: claim.startBy,
    agent: claim.agent,
    sealedSecrets: claim.sealedSecrets,
    taskToken: claim.taskToken,
    leaseToken: claim.leaseToken,
    ...(claim.traceContext ? { traceContext: claim.traceContext } : {}),
  };
}
