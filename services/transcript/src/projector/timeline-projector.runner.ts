import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { MESSAGING_CONNECTION, type MessagingConnection } from '@switchyard/messaging';
import { DATA_SOURCE } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import type { DataSource } from 'typeorm';
import type { TranscriptConfig } from '../transcript.config';
import { TRANSCRIPT_CONFIG, TRANSCRIPT_LOGGER } from '../transcript.injection-keys';
import { projectorSettings } from './projector-settings';
import { startTimelineProjector, type RunningTimelineProjector } from './timeline.projector';

/** Runs the projector for the application's lifetime; stopped before NATS and the database close. */
@Injectable()
export class TimelineProjectorRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private running: RunningTimelineProjector | undefined;

  constructor(
    @Inject(MESSAGING_CONNECTION) private readonly connection: MessagingConnection,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(TRANSCRIPT_CONFIG) private readonly config: TranscriptConfig,
    @Inject(TRANSCRIPT_LOGGER) private readonly logger: JsonLogger,
  ) {}

  /** The projector while it runs (after bootstrap, before shutdown). */
  get projector(): RunningTimelineProjector | undefined {
    return this.running;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.running = await startTimelineProjector({
      connection: this.connection,
      dataSource: this.dataSource,
      logger: this.logger.child({ component: 'timeline-projector' }),
      ...projectorSettings(this.config),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.running?.stop();
    this.running = undefined;
  }
}
