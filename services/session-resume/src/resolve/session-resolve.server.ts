import { Controller, Inject } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import {
  commandFailure,
  commandSuccess,
  type CommandFailure,
  type CommandReply,
  type ResumeDecision,
  type SessionResolveCommand,
} from '@switchyard/contracts';
import { commandResponder, describeCause, type CommandRequestContext } from '@switchyard/messaging';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import type { DataSource } from 'typeorm';
import { checkResolveSender } from '../domain/resolve-sender.check';
import { decide, type ResumeAnswer } from '../domain/resume.decider';
import { resumeKeyOf, resumeKeyText } from '../domain/resume-key';
import { findPriorTask } from '../index/resume-index.repository';
import { SESSION_RESUME_LOGGER } from '../session-resume.injection-keys';
import { readTaskAttempts } from '../trust/task-attempts.reader';

/** How long an answer waits for a predecessor's end to reach the index; under the daemon's 2 s ask. */
const PRIOR_SETTLE_WAIT_MS = 1_500;
const PRIOR_SETTLE_POLL_MS = 100;

/** Instances of the service share the requests. */
export const SESSION_RESUME_QUEUE_GROUP = 'session-resume';

/** One message for every refusal: it must not tell an unknown task from someone else's. */
export const RESOLVE_REFUSED_MESSAGE = 'session.resolve is answered only to the daemon holding the task’s current attempt, for the task’s runtime';

/**
 * Answers `cmd.session.resolve.<daemonId>` from the resume index with the decider (the messaging
 * transport validated the request against the command's schema). The asking daemon is the sender
 * its subject names; the payload names none. It must hold the task's live attempt and ask for the
 * task's runtime, else `sender_mismatch`. A read: the answer is not stored under the request id
 * (the asking daemon uses it for one run); repeating the request answers from the index as it is then.
 */
@Controller()
export class SessionResolveServer {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(SESSION_RESUME_LOGGER) private readonly logger: JsonLogger,
  ) {}

  @MessagePattern('session.resolve', commandResponder({ queueGroup: SESSION_RESUME_QUEUE_GROUP }))
  async resolve(@Payload() envelope: SessionResolveCommand, @Ctx() context: CommandRequestContext): Promise<CommandReply<ResumeDecision>> {
    const request = envelope.payload;
    const daemonId = context.getSender();
    // The transport serves this daemon-sent command on `cmd.session.resolve.*` only: never without a sender.
    if (daemonId === undefined) return commandFailure('sender_mismatch', 'session.resolve is asked by a daemon, and this request names none');
    const refusal = await this.refusalOf(envelope, daemonId);
    if (refusal) return refusal;
    const answer = await this.answerFromIndex(envelope, daemonId);
    if (answer === 'unavailable') return commandFailure('unavailable', 'the resume index cannot be read right now');
    this.logger.info({ event: 'session_resolved', taskId: request.taskId, daemonId, status: answer.status, reason: answer.status === 'fresh' ? answer.reason : null }, 'session resolved');
    return commandSuccess(answer);
  }

  /** Why the sender may not ask about this task (logged in full, answered with one message), or null. */
  private async refusalOf(envelope: SessionResolveCommand, daemonId: string): Promise<CommandFailure | null> {
    const request = envelope.payload;
    let task;
    try {
      task = await readTaskAttempts(this.dataSource, { taskId: request.taskId, attempts: 'current' });
    } catch (error) {
      this.logger.warn({ event: 'session_resolve_unavailable', requestId: envelope.requestId, daemonId, error: describeCause(error) }, 'task attempts unreadable');
      return commandFailure('unavailable', 'the task’s attempts cannot be read right now');
    }
    const check = checkResolveSender({ sender: daemonId, request, task });
    if (check.verdict === 'allowed') return null;
    this.logger.warn(
      { event: 'session_resolve_refused', requestId: envelope.requestId, taskId: request.taskId, daemonId, runtimeId: request.runtimeId, why: check.why },
      'session.resolve refused: not the sender’s attempt or runtime',
    );
    return commandFailure('sender_mismatch', RESOLVE_REFUSED_MESSAGE);
  }

  private async answerFromIndex(envelope: SessionResolveCommand, daemonId: string): Promise<ResumeAnswer | 'unavailable'> {
    const request = envelope.payload;
    const key = resumeKeyOf(request);
    const settleBy = performance.now() + PRIOR_SETTLE_WAIT_MS;
    for (;;) {
      let prior;
      try {
        prior = key === null || request.forceFreshSession ? null : await findPriorTask(this.dataSource, { resumeKey: resumeKeyText(key), excludeTaskId: request.taskId });
      } catch (error) {
        this.logger.warn({ event: 'session_resolve_unavailable', requestId: envelope.requestId, daemonId, error: describeCause(error) }, 'resume index unreadable');
        return 'unavailable';
      }
      const answer = decide(request, prior);
      // The queue runs one task per conversation at a time, so a claimed task's predecessor has
      // ended: its end is on its way to the index (a chat's second message, claimed the moment the
      // first completes). Wait for it briefly rather than start fresh.
      if (answer.status !== 'fresh' || answer.reason !== 'prior_running' || performance.now() >= settleBy) return answer;
      await new Promise((resolve) => setTimeout(resolve, PRIOR_SETTLE_POLL_MS));
    }
  }
}
