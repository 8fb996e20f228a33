import { decide, evolve, initialTaskState, type TaskDecision } from './task.decider';
import type { TaskCommand } from './task.commands';
import type { TaskEvent } from './task.events';
import type { TaskRefusalCode } from './task-refusal';
import type { Task, TaskDeciderState } from './task.state';

// Given/When/Then for the task decider: given a history, when a command, then events or a refusal.

export function fold(events: readonly TaskEvent[]): TaskDeciderState {
  return events.reduce<TaskDeciderState>(evolve, initialTaskState());
}

export function given(events: readonly TaskEvent[]) {
  const state = fold(events);
  return {
    state,
    when(command: TaskCommand) {
      const decision = decide(command, state);
      return {
        decision,
        /** Asserts the events and returns the state they lead to, for further expectations. */
        then(expected: TaskEvent[]): Task {
          expect(decision).toEqual({ ok: true, events: expected, alreadyApplied: false });
          return present(fold([...events, ...expected]));
        },
        thenRefused(code: TaskRefusalCode): void {
          expect(decision).toMatchObject({ ok: false, refusal: { code } });
        },
        thenAlreadyApplied(): void {
          expect(decision).toEqual({ ok: true, events: [], alreadyApplied: true });
        },
      };
    },
  };
}

export function present(state: TaskDeciderState): Task {
  if (!state.exists) throw new Error('expected an enqueued task');
  return state;
}

/** A one-word summary of a decision, for the (state x command) table. */
export function outcomeOf(decision: TaskDecision): string {
  if (!decision.ok) return `refused:${decision.refusal.code}`;
  if (decision.alreadyApplied) return 'already_applied';
  return decision.events.length === 0 ? 'no_events' : decision.events.map((event) => event.type).join(' + ');
}
