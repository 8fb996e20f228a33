import { isTerminalTaskState } from '@switchyard/contracts';
import type { TaskOutcomeLabel } from '@switchyard/telemetry';
import { claimableSince, type Task } from '../domain/task.state';
import type { TaskTransition } from '../storage/task-transitions';

/** What one committed transition adds to the queue's histograms. */
export type TaskObservation =
  | { readonly kind: 'claimed'; readonly latencySeconds: number }
  | { readonly kind: 'ended'; readonly outcome: TaskOutcomeLabel; readonly durationSeconds: number };

/**
 * A claim's latency (from when the task could be claimed to the claim), and a task's duration
 * when it reaches its end (from its enqueue). Times are the decisions' own (the events'
 * `occurredAt`), so a test on a fixed clock gets exact values.
 */
export function observationsOf(transition: TaskTransition): TaskObservation[] {
  const { before, after, events } = transition;
  const observations: TaskObservation[] = [];
  const claimed = events.find((event) => event.type === 'task.claimed');
  if (claimed && before.exists) observations.push({ kind: 'claimed', latencySeconds: secondsBetween(claimableSince(before), claimed.occurredAt) });
  const endedNow = (!before.exists || !isTerminalTaskState(before.status)) && isTerminalTaskState(after.status);
  if (endedNow && after.outcome) observations.push({ kind: 'ended', outcome: outcomeLabelOf(after.outcome), durationSeconds: secondsBetween(after.enqueuedAt, after.outcome.at) });
  return observations;
}

/** `expired` apart from the other failures: no attempt failed, the task was never claimed in time. */
function outcomeLabelOf(outcome: NonNullable<Task['outcome']>): TaskOutcomeLabel {
  return outcome.status === 'failed' && outcome.reason === 'expired' ? 'expired' : outcome.status;
}

/** Never negative: clocks of queue replicas may differ a little. */
function secondsBetween(from: string, to: string): number {
  return Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000);
}
