import { isDeepStrictEqual } from 'node:util';
import type { TaskCommand } from './task.commands';
import type { Task, TaskOutcome } from './task.state';

const TIMEOUT_FAILURE_REASONS = { start_deadline: 'not_started', lease: 'timeout', run: 'timeout' } as const;

/**
 * True when the command on a terminal task repeats the one that ended it (a retry after a lost
 * reply): it is answered "already applied" with no events, so a duplicate complete still yields one
 * terminal event. Anything else on a terminal task is refused `terminal_state`.
 *
 * The events do not say which report confirmed a cancel, so once a cancelled attempt has ended, any
 * end report (complete, fail, requeue, timeout, offline) from that same attempt counts as a repeat.
 */
export function isRepeatOfEnding(command: TaskCommand, task: Task): boolean {
  const outcome = task.outcome;
  if (outcome === null) return false;
  switch (command.kind) {
    case 'cancel':
      return (
        outcome.status === 'cancelled' &&
        isDeepStrictEqual(outcome.actor, command.requestedBy) &&
        outcome.reason === command.reason
      );
    case 'expire':
      return outcome.status === 'failed' && outcome.reason === 'expired';
    case 'complete':
      return endedAttempt(outcome, command, task) && outcome.status !== 'failed';
    case 'fail':
    case 'requeue':
      return (
        endedAttempt(outcome, command, task) &&
        (outcome.status === 'cancelled' ||
          (outcome.status === 'failed' && outcome.reason === command.reason && outcome.message === command.message))
      );
    case 'runtime_offline':
      return (
        endedAttempt(outcome, command, task) &&
        (outcome.status === 'cancelled' || (outcome.status === 'failed' && outcome.reason === (command.reason ?? 'runtime_offline')))
      );
    case 'timeout':
      return (
        outcome.attempt === command.attempt &&
        (outcome.status === 'cancelled' ||
          (outcome.status === 'failed' && outcome.reason === TIMEOUT_FAILURE_REASONS[command.timeout]))
      );
    default:
      return false;
  }
}

function endedAttempt(outcome: TaskOutcome, report: { attempt: number; daemonId: string }, task: Task): boolean {
  return outcome.attempt === report.attempt && task.daemonId === report.daemonId;
}
