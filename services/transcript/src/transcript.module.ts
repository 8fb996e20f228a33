import { Module, type DynamicModule } from '@nestjs/common';
import type { JsonLogger } from '@switchyard/service-kit';
import { TimelineProjectorRunner } from './projector/timeline-projector.runner';
import { ProjectorMetrics } from './projector/projector.metrics';
import type { TranscriptConfig } from './transcript.config';
import { TRANSCRIPT_CONFIG, TRANSCRIPT_LOGGER } from './transcript.injection-keys';

/** The transcript service's own providers; the platform (NATS, health, database) comes from serviceRootModule. */
@Module({})
export class TranscriptModule {
  static forRoot(config: TranscriptConfig, logger: JsonLogger): DynamicModule {
    return {
      module: TranscriptModule,
      providers: [{ provide: TRANSCRIPT_CONFIG, useValue: config }, { provide: TRANSCRIPT_LOGGER, useValue: logger }, TimelineProjectorRunner, ProjectorMetrics],
    };
  }
}
