import type { EntityManager } from 'typeorm';
import { SERVICE_PUBLISHERS, createEvent, subjects } from '@switchyard/contracts';
import { appendEvents, loadEvents, loadEventsOfAggregates, type NewEvent, type StoredEvent } from '@switchyard/event-store';
import { decide, evolve, initialTaskState, type TaskDecision } from '../domain/task.decider';
import type { TaskCommand } from '../domain/task.commands';
import type { TaskEvent } from '../domain/task.events';
import type { Task, TaskDeciderState } from '../domain/task.state';
import { projectTaskRow } from './task-queue.projection';
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
 * here (ids, correlation to the request); `agent_task_queue` is written in the same transaction.
 * Every caller runs inside `runIdempotentCommand`, which reruns the whole transaction on a
 * concurrency conflict, so the append skips its savepoint and separate version read.
 */
export async function applyTaskCommand(options: {
  readonly manager: EntityManager;
  readonly command: TaskCommand;
  readonly cause: CommandCause;
  readonly state?: TaskDeciderState;
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
    project: (manager) => projectTaskRow(manager, next as Task),
    callerRerunsOnConflict: true,
  });
  noteTaskTransition({ before: state, after: next as Task, events: decision.events });
  return { decision, state: next };
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
