import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { AuthModule } from '../auth/auth.module';
import { IssuesModule } from '../issues/issues.module';
import { TriggersModule } from '../triggers/triggers.module';
import { AutopilotFiringService } from './autopilot-firing.service';
import { AutopilotScheduler } from './autopilot.scheduler';
import { AutopilotWebhookController } from './autopilot-webhook.controller';
import { AutopilotsController } from './autopilots.controller';
import { AutopilotsRepository } from './autopilots.repository';
import { AutopilotsService } from './autopilots.service';

/** Autopilots: definitions, manual runs (API token) and the scheduler, one per replica. */
@Module({
  imports: [AuthModule, AgentsModule, IssuesModule, TriggersModule],
  controllers: [AutopilotsController],
  providers: [AutopilotsRepository, AutopilotFiringService, AutopilotsService, AutopilotScheduler],
  exports: [AutopilotsService],
})
export class AutopilotsModule {}

/** The webhook, authenticated by each autopilot's own secret: outside the token-guarded REST modules and their OpenAPI document. */
@Module({
  imports: [AutopilotsModule],
  controllers: [AutopilotWebhookController],
})
export class AutopilotWebhookModule {}
