import { Inject, Injectable, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { MESSAGING_CONNECTION, type MessagingConnection } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';
import type { DaemonConfig } from '../daemon.config';
import { DAEMON_CONFIG, DAEMON_LOGGER } from '../daemon.injection-keys';
import { QueueClient } from './queue.client';
import { SlotTracker } from '../runtimes/slot-tracker';

/**
 * At boot, before the first claim, the queue fails every attempt still held under this DAEMON_ID
 * (`task.release_orphans`): a fresh process runs nothing from before its boot, and the agents of a
 * killed one died with it, so its runs need not wait out their lease. Assumes one process per
 * DAEMON_ID: a second live process under the same id would lose its runs (they are retried).
 *
 * Until the queue answers, the slots stay closed, so no claim can race the release and be failed
 * by it; boot itself (health, registration, heartbeats) never waits for the queue. Opening the
 * slots makes the claim loop claim at once (in process: no nudge of its own over NATS).
 */
@Injectable()
export class OrphanRelease implements OnModuleInit, BeforeApplicationShutdown {
  private readonly queue: QueueClient;
  private readonly shutdown = new AbortController();
  private releasing: Promise<void> = Promise.resolve();

  constructor(
    @Inject(MESSAGING_CONNECTION) private readonly connection: MessagingConnection,
    @Inject(DAEMON_CONFIG) private readonly config: DaemonConfig,
    @Inject(DAEMON_LOGGER) private readonly logger: JsonLogger,
    private readonly slots: SlotTracker,
  ) {
    this.queue = new QueueClient(connection, config.DAEMON_ID);
  }

  /** Module init runs before every bootstrap hook, the claim loop's included. */
  onModuleInit(): void {
    this.slots.close();
    this.releasing = this.release(new Date().toISOString());
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.shutdown.abort();
    await this.releasing;
  }

  private async release(bootedAt: string): Promise<void> {
    const daemonId = this.config.DAEMON_ID;
    try {
      const reply = await this.queue.sendUntilAnswered('task.release_orphans', { daemonId, bootedAt }, { signal: this.shutdown.signal });
      if (reply.ok) {
        const taskIds = reply.result.tasks.map((task) => task.taskId);
        this.logger.info({ event: 'orphans_released', daemonId, bootedAt, taskIds }, `released ${taskIds.length} attempt(s) held before this boot`);
      } else {
        this.logger.error({ event: 'orphans_not_released', daemonId, error: reply.error }, 'orphans not released; they end by lease or offline sweep');
      }
    } catch (error) {
      if (this.shutdown.signal.aborted) return;
      this.logger.error({ event: 'orphans_not_released', daemonId, err: error }, 'orphans not released; they end by lease or offline sweep');
    }
    // A refusal must not stop this daemon from working: its orphans then end as they did before.
    // The claim loop claims as the slots open: work that waited for this daemon starts at once.
    this.slots.open();
  }
}
