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

/**
 * `fresh` may still name the prior task's work dir: the session is not continued, but the files
 * (a repository's branch, uncommitted work) are the conversation's and carry on.
 */
export type ResumeAnswer = { status: 'fresh'; reason: FreshReason; workDir?: string | null } | { status: 'resume'; sessionId: string; workDir: string | null };

const fresh = (reason: FreshReason, workDir?: string | null): ResumeAnswer => (workDir ? { status: 'fresh', reason, workDir } : { status: 'fresh', reason });

/**
 * Which session a new task continues (design §7). Usable: same runtime; the prior task completed,
 * was cancelled, or failed for a reason that does not poison the session; not retired.
 */
export function decide(request: ResumeRequest, prior: PriorTask | null): ResumeAnswer {
  if (request.forceFreshSession) return fresh('forced_fresh');
  if (resumeKeyOf(request) === null || prior === null) return fresh('no_prior_session');
  const { entry } = prior;
  if (entry.outcome === null) return fresh('prior_running');
  const place = sessionPlace(entry);
  const session = entry.session;
  if (session === null) return fresh('no_prior_session', place.workDir);
  if (prior.sessionRetired) return fresh('retired', place.workDir);
  if (place.runtimeId !== request.runtimeId) return fresh('runtime_changed', place.workDir);
  if (entry.outcome.kind === 'failed') {
    const poison = poisonOf(entry.outcome);
    if (poison) return fresh(`poisoned:${poison}`, place.workDir);
  }
  return { status: 'resume', sessionId: session.sessionId, workDir: place.workDir };
}
