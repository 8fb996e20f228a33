import { createEvent, subjects, type ClaimedTask, type SessionRetireReason } from '@switchyard/contracts';
import { publish, type MessagingConnection } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import type { DetectedRuntime } from '../runtimes/runtime-detector';

interface NoticeDependencies {
  /** This daemon's id: the publisher token of the session events' subjects. */
  readonly daemonId: string;
  readonly connection: MessagingConnection;
  readonly logger: JsonLogger;
}

/**
 * Announces the CLI's session as soon as it is known (`session.pinned`), so a crash later in the
 * run still leaves a session the next task can resume. Best effort: the id also travels in the
 * timeline's status message.
 */
export async function pinSession(options: {
  readonly task: ClaimedTask;
  readonly runtime: DetectedRuntime;
  readonly sessionId: string;
  readonly workDirectory: string;
  readonly dependencies: NoticeDependencies;
}): Promise<void> {
  const { task, sessionId } = options;
  try {
    const envelope = createEvent({
      type: 'session.pinned',
      payload: { sessionId, taskId: task.taskId, attempt: task.attempt, runtimeId: options.runtime.runtimeId, workDir: options.workDirectory },
    });
    await publish(options.dependencies.connection, {
      subject: subjects.forEvent(envelope, options.dependencies.daemonId),
      data: envelope,
      messageId: `session-pinned:${task.taskId}:${task.attempt}:${sessionId}`,
    });
  } catch (error) {
    options.dependencies.logger.warn({ err: error, taskId: task.taskId, sessionId }, 'session could not be pinned; it stays in the timeline');
  }
}

/**
 * Tells the session-resume index never to offer this session again (`session.retired`): the CLI
 * rejected it (`resume_rejected`), or its store is gone (`session_store_missing`). Best effort: at
 * worst the next task is offered it and the gate or the CLI rejects it again.
 */
export async function retireSession(options: {
  readonly task: ClaimedTask;
  readonly sessionId: string;
  readonly reason: Extract<SessionRetireReason, 'resume_rejected' | 'session_store_missing'>;
  readonly message: string;
  readonly dependencies: NoticeDependencies;
}): Promise<void> {
  const { task, sessionId } = options;
  try {
    const envelope = createEvent({ type: 'session.retired', payload: { sessionId, taskId: task.taskId, reason: options.reason, message: options.message } });
    await publish(options.dependencies.connection, {
      subject: subjects.forEvent(envelope, options.dependencies.daemonId),
      data: envelope,
      messageId: `session-retired:${task.taskId}:${task.attempt}:${sessionId}`,
    });
  } catch (error) {
    options.dependencies.logger.warn({ err: error, taskId: task.taskId, sessionId }, 'session could not be retired; the resume may be offered again');
  }
}
