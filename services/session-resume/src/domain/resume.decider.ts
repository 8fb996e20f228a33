import type { TaskSource } from '@switchyard/contracts';
import { poisonOf } from './poisoned-failures';
import { sessionPlace, type ResumeIndexEntry } from './resume-index.entry';
import { resumeKeyOf } from './resume-key';
import type { FreshReason } from './resume-reasons';

/** The task about to run. */
export interface ResumeRequest {
  taskId: string;
  agentId: string;
  runtimeId: string;
  source: TaskSource;
  forceFreshSession: boolean;
}

/** What the index holds for the request's conversation: its latest task that ran, other than the request's own. */
export interface PriorTask {
  entry: ResumeIndexEntry;
  /** Whether its session was retired (`session.retired`). */
  sessionRetired: boolean;
}

export type ResumeAnswer = { status: 'fresh'; reason: FreshReason } | { status: 'resume'; sessionId: string; workDir: string | null };

const fresh = (reason: FreshReason): ResumeAnswer => ({ status: 'fresh', reason });

/**
 * Which session a new task continues (design §7). Usable: same runtime; the prior task completed,
 * was cancelled, or failed for a reason that does not poison the session; not retired.
 */
export function decide(request: ResumeRequest, prior: PriorTask | null): ResumeAnswer {
  if (request.forceFreshSession) return fresh('forced_fresh');
  if (resumeKeyOf(request) === null || prior === null) return fresh('no_prior_session');
  const { entry } = prior;
  if (entry.outcome === null) return fresh('prior_running');
  const session = entry.session;
  if (session === null) return fresh('no_prior_session');
  if (prior.sessionRetired) return fresh('retired');
  const place = sessionPlace(entry);
  if (place.runtimeId !== request.runtimeId) return fresh('runtime_changed');
  if (entry.outcome.kind === 'failed') {
    const poison = poisonOf(entry.outcome);
    if (poison) return fresh(`poisoned:${poison}`);
  }
  return { status: 'resume', sessionId: session.sessionId, workDir: place.workDir };
}
