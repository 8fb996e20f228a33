import type { PoisonedFailureCode } from './poisoned-failures';

/** Why a task starts fresh; each "no" of the decider has exactly one. */
export const FRESH_REASONS = {
  forced_fresh: 'Rerun or chat /new asked for a fresh session.',
  no_prior_session: 'No earlier task of this conversation ran or left a session; quick create and autopilot runs have no conversation at all.',
  prior_running: 'The latest task of this conversation has not ended (or its end is not indexed yet).',
  runtime_changed: 'The prior session belongs to another runtime.',
  retired: 'The prior session was retired.',
  poisoned: 'The prior task failed in a way that poisons its session (poisoned:<code>).',
} as const;

export type FreshReason = Exclude<keyof typeof FRESH_REASONS, 'poisoned'> | `poisoned:${PoisonedFailureCode}`;
