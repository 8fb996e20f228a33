import { Controller, Inject } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import {
  commandFailure,
  commandSuccess,
  type CommandReply,
  type ResumeDecision,
  type SessionResolveCommand,
} from '@switchyard/contracts';
import { commandResponder, describeCause, type CommandRequestContext } from '@switchyard/messaging';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import type { DataSource } from 'typeorm';
import { decide } from '../domain/resume.decider';
import { resumeKeyOf, resumeKeyText } from '../domain/resume-key';
import { findPriorTask } from '../index/resume-index.repository';
import { SESSION_RESUME_LOGGER } from '../session-resume.injection-keys';

/** How long an answer waits for a predecessor's end to reach the index; under the daemon's 2 s ask. */
const PRIOR_SETTLE_WAIT_MS = 1_500;
const PRIOR_SETTLE_POLL_MS = 100;

/** Instances of the service share the requests. */
export const SESSION_RESUME_QUEUE_GROUP = 'session-resume';

/**
 * Answers `cmd.session.resolve.<daemonId>` from the resume index with the decider (the messaging
 * transport validated the request against the command's schema). The asking daemon is the sender
 * its subject names; the payload names none. A read: the answer is not stored under the request id
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
    const key = resumeKeyOf(request);
    let answer;
    const settleBy = performance.now() + PRIOR_SETTLE_WAIT_MS;
    for (;;) {
      let prior;
      try {
        prior = key === null || request.forceFreshSession ? null : await findPriorTask(this.dataSource, { resumeKey: resumeKeyText(key), excludeTaskId: request.taskId });
      } catch (error) {
        this.logger.warn({ event: 'session_resolve_unavailable', requestId: envelope.requestId, daemonId, error: describeCause(error) }, 'resume index unreadable');
        return commandFailure('unavailable', 'the resume index cannot be read right now');
      }
      answer = decide(request, prior);
      // The queue runs one task per conversation at a time, so a claimed task's predecessor has
      // ended: its end is on its way to the index (a chat's second message, claimed the moment the
      // first completes). Wait for it briefly rather than start fresh.
      if (answer.status !== 'fresh' || answer.reason !== 'prior_running' || performance.now() >= settleBy) break;
      await new Promise((resolve) => setTimeout(resolve, PRIOR_SETTLE_POLL_MS));
    }
    this.logger.info({ event: 'session_resolved', taskId: request.taskId, daemonId, status: answer.status, reason: answer.status === 'fresh' ? answer.reason : null }, 'session resolved');
    return commandSuccess(answer);
  }
}
