import { decide } from '../domain/task.decider';
import type { TaskCommand } from '../domain/task.commands';
import type { TaskEvent } from '../domain/task.events';
import { fold, present } from '../domain/task-given.spec-helper';
import { LATER, NOW, SOON, T1, commands, events, histories } from '../domain/task.fixtures.spec-helper';
import type { TaskTransition } from '../storage/task-transitions';
import { observationsOf } from './task-observations';

// Given a task's history, when a command is decided, then what its transition adds to the
// histograms. The fixtures' clock: enqueued at T0 (12:00:00), claimed at T1 (12:00:10), commands at
// NOW (12:05:00), SOON 30 s later.

function when(history: readonly TaskEvent[], command: TaskCommand): TaskTransition {
  const before = fold(history);
  const decision = decide(command, before);
  if (!decision.ok) throw new Error(`refused: ${decision.refusal.code}`);
  return { before, after: present(fold([...history, ...decision.events])), events: decision.events };
}

describe('task observations', () => {
  describe('claim latency', () => {
    it('counts from the enqueue for a task claimed from the queue', () => {
      expect(observationsOf(when(histories.queued, commands.claim()))).toEqual([{ kind: 'claimed', latencySeconds: 300 }]);
    });

    it('counts from its fire time for a deferred task, not from its enqueue', () => {
      expect(observationsOf(when(histories.deferredDue, commands.claim()))).toEqual([{ kind: 'claimed', latencySeconds: 290 }]);
    });

    it('counts from the requeue for a task whose attempt ended before its start', () => {
      expect(observationsOf(when(histories.requeued, commands.claim({ now: SOON, startBy: LATER })))).toEqual([{ kind: 'claimed', latencySeconds: 30 }]);
    });

    it('counts zero for a task claimed the moment its deferral fell due', () => {
      expect(observationsOf(when([events.enqueued(), events.deferred({ fireAt: NOW })], commands.claim({ now: NOW })))).toEqual([{ kind: 'claimed', latencySeconds: 0 }]);
    });
  });

  describe('task duration', () => {
    it.each<[string, readonly TaskEvent[], TaskCommand, string]>([
      ['completed', histories.running, commands.complete(), 'completed'],
      ['failed for good', histories.running, commands.fail({ reason: 'auth_failed' }), 'failed'],
      ['cancelled while queued', histories.queued, commands.cancel(), 'cancelled'],
      ['expired in the queue', histories.queued, commands.expire({ cause: 'expired', message: 'Waited queued past its TTL' }), 'expired'],
    ])('observes a task %s under its outcome, from its enqueue to its end', (_case, history, command, outcome) => {
      expect(observationsOf(when(history, command))).toEqual([{ kind: 'ended', outcome, durationSeconds: 300 }]);
    });

    it('observes a failure the queue will retry as failed: the retry is a task of its own', () => {
      expect(observationsOf(when(histories.running, commands.fail({ reason: 'provider_network' })))).toEqual([{ kind: 'ended', outcome: 'failed', durationSeconds: 300 }]);
    });
  });

  it('observes nothing for a transition that neither claims nor ends a task', () => {
    expect(observationsOf(when(histories.running, commands.renew()))).toEqual([]);
    expect(observationsOf(when(histories.runningCancelRequested, commands.cancel()))).toEqual([]);
    expect(observationsOf(when([], commands.enqueue()))).toEqual([]);
    expect(observationsOf(when(histories.dispatched, commands.start({ now: T1, leaseExpiresAt: SOON })))).toEqual([]);
  });

  it('observes nothing for a repeated ending: the task had already ended', () => {
    const transition = when(histories.completed, commands.complete());
    expect(transition.events).toEqual([]);
    expect(observationsOf(transition)).toEqual([]);
  });
});
