import { Module, type DynamicModule } from '@nestjs/common';
import type { JsonLogger } from '@switchyard/service-kit';
import { ResumeIndexProjector } from './index/resume-index.projector';
import { SessionResolveServer } from './resolve/session-resolve.server';
import type { SessionResumeConfig } from './session-resume.config';
import { SESSION_RESUME_CONFIG, SESSION_RESUME_LOGGER } from './session-resume.injection-keys';

/** The resume index projector and the `session.resolve` responder; the platform (NATS, health, database) comes from serviceRootModule. */
@Module({})
export class SessionResumeModule {
  static forRoot(config: SessionResumeConfig, logger: JsonLogger): DynamicModule {
    return {
      module: SessionResumeModule,
      providers: [
        { provide: SESSION_RESUME_CONFIG, useValue: config },
        { provide: SESSION_RESUME_LOGGER, useValue: logger },
      ],
      // Message handlers: the messaging transport runs their @EventPattern / @MessagePattern methods.
      controllers: [ResumeIndexProjector, SessionResolveServer],
    };
  }
}
