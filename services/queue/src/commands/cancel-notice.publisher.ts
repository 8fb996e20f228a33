import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { subjects } from '@switchyard/contracts';
import { MESSAGING_CONNECTION, publishNotice, type MessagingConnection } from '@switchyard/messaging';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import { QUEUE_LOGGER } from '../queue.injection-keys';

/**
 * Tells the daemon holding a live attempt that a cancel of it committed
 * (`notify.<daemonId>.cancel.<taskId>`, core NATS), so it stops the run now. The daemon is the
 * holder of the latest attempt as `agent_task_queue` has it after the commit; an attempt that
 * ended meanwhile needs no push.
 */
@Injectable()
export class CancelNoticePublisher {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(MESSAGING_CONNECTION) private readonly connection: MessagingConnection,
    @Inject(QUEUE_LOGGER) private readonly logger: JsonLogger,
  ) {}

  /**
   * Best effort, never rejects: a daemon that misses the push learns of the cancel from its next
   * lease renewal (`cancelRequested`), so a lost notice only delays the stop.
   */
  async publish(taskIds: Iterable<string>): Promise<void> {
    const wanted = [...new Set(taskIds)];
    if (wanted.length === 0) return;
    let holders: Array<{ task_id: string; daemon_id: string }>;
    try {
      holders = await this.dataSource.query(
        `select task_id, daemon_id from agent_task_queue
          where task_id = any($1) and status in ('dispatched', 'waiting_local_directory', 'running') and daemon_id is not null`,
        [wanted],
      );
    } catch (error) {
      this.logger.warn({ err: error, taskIds: wanted }, 'cancel notice not published: the attempts’ daemons could not be read');
      return;
    }
    for (const { task_id: taskId, daemon_id: daemonId } of holders) {
      try {
        publishNotice(this.connection, subjects.cancelNotice(daemonId, taskId));
      } catch (error) {
        this.logger.warn({ err: error, taskId, daemonId }, 'cancel notice not published');
      }
    }
  }
}
