import { trace } from '@opentelemetry/api';
import type { EntityManager } from 'typeorm';
import { bundleIdOfSecretRef, secretRefsOf, type ClaimedTask, type TaskClaimPayload, type TraceContextFields } from '@switchyard/contracts';
import { SPAN_ATTRIBUTES } from '@switchyard/telemetry';
import { readSecretBundles } from '../storage/task-secrets.store';
import type { Task, TaskDeciderState } from '../domain/task.state';
import { applyTaskCommand, loadTasks, type CommandCause } from '../storage/task.repository';
import { mintLeaseToken, recordLeaseToken } from '../storage/lease-token';
import { deriveTaskToken, recordTaskToken } from '../storage/task-token';
import type { SecretKeyring } from '@switchyard/persistence';
import { sealClaimedAgent } from './claimed-task-secrets';
import { agentIssueKey, lockAgentsAndReadActiveWork, lockClaimCandidates, type ActiveWork, type ClaimCandidate } from './claim-candidates.query';
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
  const work = await lockAgentsAndReadActiveWork(manager, candidates.map((candidate) => candidate.agentId));
  // One read for every candidate's events, not one per claim. A writer in between makes the append
  // conflict, and the whole claim is run again on fresh state.
  const loaded = await loadTasks(manager, candidates.map((candidate) => candidate.taskId));
  const claimed: ClaimedAttempt[] = [];
  for (const candidate of candidates) {
    if (claimed.length >= options.payload.maxTasks) break;
    if (!hasFreeSlot(candidate, work, options.defaultMaxConcurrentTasks)) continue;
    const task = loaded.get(candidate.taskId);
    const attempt = await inTaskClaimSpan({ taskId: candidate.taskId, originHeaders: task?.originHeaders }, (traceContext) =>
      claimOne({ options, candidate, now, startBy, state: task?.state, traceContext }),
    );
    if (!attempt) continue;
    takeSlot(candidate, work);
    claimed.push(attempt);
  }
  trace.getActiveSpan()?.setAttribute(SPAN_ATTRIBUTES.claimedTasks, claimed.length);
  // One read for every claimed task's secret bundles; each task's values are then sealed to the daemon.
  const bundles = await readSecretBundles(
    manager,
    options.secretKeyring,
    claimed.flatMap(({ state }) => secretRefsOf(state.agent).map(bundleIdOfSecretRef)),
  );
  if (bundles.unreadable.length > 0) options.onUnreadableBundles?.(bundles.unreadable);
  return claimed.map(({ state, taskToken, leaseToken, traceContext }) =>
    toClaimedTask(state, {
      startBy,
      taskToken,
      leaseToken,
      ...(traceContext ? { traceContext } : {}),
      ...sealClaimedAgent({ agent: state.agent, values: bundles.values, attemptRef: `${state.taskId}.${state.attempt}`, sealingKey: options.payload.sealingKey }),
    }),
  );
}

interface ClaimedAttempt {
  readonly state: Task;
  readonly taskToken: string;
  readonly leaseToken: string;
  readonly traceContext: TraceContextFields | undefined;
}

/** Decides and appends one candidate's claim and records its attempt's tokens; undefined when refused. */
async function claimOne(input: {
  readonly options: ClaimTasksOptions;
  readonly candidate: ClaimCandidate;
  readonly now: string;
  readonly startBy: string;
  readonly state: TaskDeciderState | undefined;
  readonly traceContext: () => TraceContextFields | undefined;
}): Promise<ClaimedAttempt | undefined> {
  const { options, candidate, now, startBy } = input;
  const { manager } = options;
  const { decision, state } = await applyTaskCommand({
    manager,
    cause: options.cause,
    command: { kind: 'claim', taskId: candidate.taskId, now, daemonId: options.payload.daemonId, runtimeIds: options.payload.runtimeIds, startBy },
    ...(input.state ? { state: input.state } : {}),
  });
  if (!decision.ok || !state.exists) return undefined;
  const taskToken = deriveTaskToken(options.taskTokens.secret, state.taskId, state.attempt);
  await recordTaskToken(manager, { taskId: state.taskId, attempt: state.attempt, token: taskToken, issuedAt: options.now, ttlMs: options.taskTokens.ttlMs });
  const leaseToken = mintLeaseToken();
  await recordLeaseToken(manager, { taskId: state.taskId, token: leaseToken });
  return { state, taskToken, leaseToken, traceContext: input.traceContext() };
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
