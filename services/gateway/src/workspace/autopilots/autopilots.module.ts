import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { IssuesModule } from '../issues/issues.module';
import { TriggersModule } from '../triggers/triggers.module';
import { AutopilotFiringService } from './autopilot-firing.service';
import { AutopilotScheduler } from './autopilot.scheduler';
import { AutopilotsRepository } from './autopilots.repository';
import { AutopilotsService } from './autopilots.service';

/** Autopilots: definitions, manual runs (API token) and the scheduler, one per replica. */
@Module({
  imports: [AgentsModule, IssuesModule, TriggersModule],
  providers: [AutopilotsRepository, AutopilotFiringService, AutopilotsService, AutopilotScheduler],
  exports: [AutopilotsService],
})
export class AutopilotsModule {}

