import { Inject, Injectable } from '@nestjs/common';
import { subjects } from '@switchyard/contracts';
import { MESSAGING_CONNECTION, publishNotice, type MessagingConnection } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import { QUEUE_LOGGER } from '../queue.injection-keys';

/**
 * Tells the daemons of a runtime that work is waiting (`notify.work_available.<runtimeId>`, core
 * NATS), after whatever queued it has committed: a command, a sweeper retry, an orphan release.
 */
@Injectable()
export class WorkAvailableNudger {
  constructor(
    @Inject(MESSAGING_CONNECTION) private readonly connection: MessagingConnection,
    @Inject(QUEUE_LOGGER) private readonly logger: JsonLogger,
  ) {}

  /**
   * Best effort: daemons also claim on a slow safety poll, so a lost nudge only delays, and a
   * failed publish (connection closing) must not fail the change that was already committed.
   */
  nudge(runtimeIds: Iterable<string>): void {
    for (const runtimeId of new Set(runtimeIds)) {
      try {
        publishNotice(this.connection, subjects.workAvailable(runtimeId));
      } catch (error) {
        this.logger.warn({ err: error, runtimeId }, 'work-available nudge not published');
      }
    }
  }
}
