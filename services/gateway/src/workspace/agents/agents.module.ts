import { Module } from '@nestjs/common';
import { RuntimesModule } from '../runtimes/runtimes.module';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';

@Module({
  imports: [RuntimesModule],
  providers: [AgentsRepository, AgentsService],
  exports: [AgentsRepository, AgentsService],
})
export class AgentsModule {}
