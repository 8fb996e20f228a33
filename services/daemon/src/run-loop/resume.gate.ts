import type { SessionStoreState } from '@switchyard/agent-adapters/wing';
import type { ResumeDecision } from '@switchyard/contracts';
import type { WorkDirectoryReason } from '../exec-env';

export type { SessionStoreState } from '@switchyard/agent-adapters/wing';

/** Why the daemon started fresh although the session-resume service said `resume`. */
export type ResumeSkipReason = 'work_dir_missing' | 'session_store_missing';

export type ResumeGateVerdict =
  | { readonly kind: 'fresh' }
  | { readonly kind: 'resume'; readonly sessionId: string }
  | { readonly kind: 'skip'; readonly sessionId: string; readonly reason: ResumeSkipReason; readonly detail: string; readonly retire: boolean };

/**
 * The last step of the resume decision (`resume.decider.ts`), pure. Design §5: the prior session
 * session-resume offered is kept only if the work dir `prepareExecEnv` reused is the prior one
 * (a CLI's session is tied to its cwd) and the CLI's session store is reachable. A missing store
 * retires the session (it can never be resumed on this runtime); a missing work dir does not, since
 * the session itself is intact.
 */
export function decideResumeGate(options: {
  readonly decision: ResumeDecision;
  readonly workDirectory: { readonly reused: boolean; readonly reason: WorkDirectoryReason; readonly detail: string };
  readonly sessionStore: SessionStoreState;
}): ResumeGateVerdict {
  const { decision, workDirectory, sessionStore } = options;
  if (decision.status !== 'resume') return { kind: 'fresh' };
  const { sessionId } = decision;
  if (decision.workDir === null || !workDirectory.reused) {
    const detail = decision.workDir === null ? 'the prior session has no known work dir' : `${workDirectory.reason}: ${workDirectory.detail}`;
    return { kind: 'skip', sessionId, reason: 'work_dir_missing', detail, retire: false };
  }
  if (sessionStore.state === 'missing') return { kind: 'skip', sessionId, reason: 'session_store_missing', detail: sessionStore.detail, retire: true };
  return { kind: 'resume', sessionId };
}
