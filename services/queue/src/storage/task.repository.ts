import type { EntityManager } from 'typeorm';
import { SERVICE_PUBLISHERS, createEvent, subjects } from '@switchyard/contracts';
import { appendEvents, appendEventsOfAggregates, loadEvents, loadEventsOfAggregates, type AlongsideStatement, type NewEvent, type StoredEvent } from '@switchyard/event-store';
import { decide, evolve, initialTaskState, type TaskDecision } from '../domain/task.decider';
import type { TaskCommand } from '../domain/task.commands';
import type { TaskEvent } from '../domain/task.events';
import type { Task, TaskDeciderState } from '../domain/task.state';
import { taskRowsStatements } from './task-queue.projection';
import { noteTaskTransition } from './task-transitions';

/** Correlation of the events a command produces: the request that caused them. */
export interface CommandCause {
  readonly requestId: string;
  readonly correlationId: string;
}

export interface AppliedDecision {
  readonly decision: TaskDecision;
  /** The task after the decision (unchanged when refused or already applied). */
  readonly state: TaskDeciderState;
}

/** Folds a task's stored events into its current state. */
export async function loadTask(manager: EntityManager, taskId: string): Promise<TaskDeciderState> {
  return foldTask(await loadEvents({ manager, aggregateId: taskId }));
}

/** A task as a claim reads it: its state, and the headers stored with its first event. */
export interface LoadedTask {
  readonly state: TaskDeciderState;
  /** Of the event that created the task (its enqueue): the trace of the request that caused it. */
  readonly originHeaders: Readonly<Record<string, string>>;
}

/** The current state of many tasks from one read (a claim's candidates). */
export async function loadTasks(manager: EntityManager, taskIds: readonly string[]): Promise<Map<string, LoadedTask>> {
  const stored = await loadEventsOfAggregates({ manager, aggregateIds: taskIds });
  return new Map(
    taskIds.map((taskId) => {
      const events = stored.get(taskId) ?? [];
      return [taskId, { state: foldTask(events), originHeaders: events[0]?.headers ?? {} }];
    }),
  );
}

function foldTask(stored: readonly StoredEvent[]): TaskDeciderState {
  return stored.reduce<TaskDeciderState>(
    (state, event) => evolve(state, { type: event.envelope.type, payload: event.envelope.payload, occurredAt: event.envelope.occurredAt } as TaskEvent),
    initialTaskState(),
  );
}

/**
 * Load, decide, append and project in the caller's transaction. Events become contract envelopes
 * here (ids, correlation to the request); `agent_task_queue` is written by the same statement.
 * Every caller runs inside `runIdempotentCommand`, which reruns the whole transaction on a
 * concurrency conflict, so the append skips its savepoint and separate version read.
 */
export async function applyTaskCommand(options: {
  readonly manager: EntityManager;
  readonly command: TaskCommand;
  readonly cause: CommandCause;
  /** The task as the caller knows it (a fresh task id has no events to load). */
  readonly state?: TaskDeciderState;
  /** Sent with the events and the task's row, in the same statement (see `AlongsideStatement`). */
  readonly alongside?: readonly AlongsideStatement[];
  /** More of those, from the task after the decision (the command's reply), asked only when events are written. */
  readonly alongsideOf?: (task: Task) => readonly AlongsideStatement[];
}): Promise<AppliedDecision> {
  const state = options.state ?? (await loadTask(options.manager, options.command.taskId));
  const decision = decide(options.command, state);
  if (!decision.ok || decision.events.length === 0) return { decision, state };
  const next = decision.events.reduce(evolve, state);
  await appendEvents({
    manager: options.manager,
    aggregateId: options.command.taskId,
    expectedVersion: state.version,
    events: decision.events.map((event) => toNewEvent(event, options.cause)),
    alongside: [...taskRowsStatements([next as Task]), ...(options.alongside ?? []), ...(options.alongsideOf?.(next as Task) ?? [])],
    callerRerunsOnConflict: true,
  });
  noteTaskTransition({ before: state, after: next as Task, events: decision.events });
  return { decision, state: next };
}

/** A decision taken on a loaded state and not stored yet: `appendTaskDecisions` stores several together. */
export interface PendingTaskDecision {
  readonly before: TaskDeciderState;
  readonly after: Task;
  readonly events: readonly TaskEvent[];
  /** Stored with the events: the trace context they were decided in (see `storedHeaders` of the event store). */
  readonly headers: Readonly<Record<string, string>>;
}

/** Decides on a state the caller loaded in its transaction; nothing is written. */
export function decideTaskCommand(command: TaskCommand, state: TaskDeciderState, headers: Readonly<Record<string, string>>): { readonly decision: TaskDecision; readonly pending?: PendingTaskDecision } {
  const decision = decide(command, state);
  if (!decision.ok || decision.events.length === 0) return { decision };
  return { decision, pending: { before: state, after: decision.events.reduce(evolve, state) as Task, events: decision.events, headers } };
}

/**
 * `applyTaskCommand`'s append and projection for several tasks at once, in one statement, in the
 * caller's transaction (rerun whole on a concurrency conflict, as every command's is).
 */
export async function appendTaskDecisions(options: {
  readonly manager: EntityManager;
  readonly cause: CommandCause;
  readonly decisions: readonly PendingTaskDecision[];
  /** Of the claimed attempts, written into their rows. */
  readonly leaseTokenHashes?: ReadonlyMap<string, string>;
  readonly alongside?: readonly AlongsideStatement[];
}): Promise<void> {
  if (options.decisions.length === 0) return;
  await appendEventsOfAggregates({
    manager: options.manager,
    appends: options.decisions.map((pending) => ({
      aggregateId: pending.after.taskId,
      expectedVersion: pending.before.version,
      events: pending.events.map((event) => ({ ...toNewEvent(event, options.cause), headers: { ...pending.headers } })),
    })),
    alongside: [
      ...taskRowsStatements(
        options.decisions.map((pending) => pending.after),
        options.leaseTokenHashes ? { leaseTokenHashes: options.leaseTokenHashes } : {},
      ),
      ...(options.alongside ?? []),
    ],
  });
  for (const pending of options.decisions) noteTaskTransition({ before: pending.before, after: pending.after, events: pending.events });
}

function toNewEvent(event: TaskEvent, cause: CommandCause): NewEvent {
  const envelope = createEvent({
    type: event.type,
    payload: event.payload,
    occurredAt: event.occurredAt,
    correlationId: cause.correlationId,
    causationId: cause.requestId,
  });
  // The subject is stored with the row and relayed as it is: the queue publishes these events.
  return { envelope, subject: subjects.forEvent(envelope, SERVICE_PUBLISHERS.queue) };
}
