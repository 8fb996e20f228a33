import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RuntimesModule } from '../runtimes/runtimes.module';
import { AgentsController } from './agents.controller';
import { AgentsRepository } from './agents.repository';
import { AgentsService } from './agents.service';

@Module({
  imports: [AuthModule, RuntimesModule],
  controllers: [AgentsController],
  providers: [AgentsRepository, AgentsService],
  exports: [AgentsRepository],
})
export class AgentsModule {}
