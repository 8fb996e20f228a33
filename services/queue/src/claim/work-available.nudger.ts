import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { subjects } from '@switchyard/contracts';
import { MESSAGING_CONNECTION, publishNotice, type MessagingConnection } from '@switchyard/messaging';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import { QUEUE_LOGGER } from '../queue.injection-keys';

/**
 * Tells the daemon of a runtime that work is waiting (`notify.<daemonId>.work_available.<runtimeId>`,
 * core NATS), after whatever queued it has committed: a command, a sweeper retry, an orphan release.
 * The daemon is the one `runtime_presence` last heard the runtime's heartbeat from; a runtime never
 * heard from has no daemon to tell yet.
 */
@Injectable()
export class WorkAvailableNudger {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(MESSAGING_CONNECTION) private readonly connection: MessagingConnection,
    @Inject(QUEUE_LOGGER) private readonly logger: JsonLogger,
  ) {}

  /**
   * Best effort, never rejects: daemons also claim on a slow safety poll, so a lost nudge only
   * delays, and a failed lookup or publish (connection closing) must not fail the change that was
   * already committed.
   */
  async nudge(runtimeIds: Iterable<string>): Promise<void> {
    this.tell(await this.daemonsOf(runtimeIds));
  }

  /**
   * Which daemons to tell about these runtimes; never rejects. A command that knows its runtime
   * asks this while its transaction runs, so the nudge after the commit waits for no read.
   */
  async daemonsOf(runtimeIds: Iterable<string>): Promise<RuntimeDaemons> {
    const wanted = [...new Set(runtimeIds)];
    if (wanted.length === 0) return [];
    try {
      return await this.dataSource.query('select runtime_id, daemon_id from runtime_presence where runtime_id = any($1)', [wanted]);
    } catch (error) {
      this.logger.warn({ err: error, runtimeIds: wanted }, 'work-available nudge not published: the runtimes’ daemons could not be read');
      return [];
    }
  }

  /** Publishes the nudges; never throws. */
  tell(daemons: RuntimeDaemons): void {
    for (const { runtime_id: runtimeId, daemon_id: daemonId } of daemons) {
      try {
        publishNotice(this.connection, subjects.workAvailable(daemonId, runtimeId));
      } catch (error) {
        this.logger.warn({ err: error, runtimeId, daemonId }, 'work-available nudge not published');
      }
    }
  }
}

/** Runtimes with the daemon `runtime_presence` last heard each from. */
export type RuntimeDaemons = ReadonlyArray<{ readonly runtime_id: string; readonly daemon_id: string }>;
