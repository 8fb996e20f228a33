import { Module } from '@nestjs/common';
import { RuntimesModule } from '../runtimes/runtimes.module';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';
import { AgentSecretsResealer } from './agent-secrets.resealer';

@Module({
  imports: [RuntimesModule],
  providers: [AgentsRepository, AgentsService, AgentSecretsResealer],
  exports: [AgentsRepository, AgentsService],
})
export class AgentsModule {}
