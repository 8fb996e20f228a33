import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { AuthModule } from '../auth/auth.module';
import { RuntimesModule } from '../runtimes/runtimes.module';
import { QueueCommandsClient } from './queue-commands.client';
import { TaskReadsRepository } from './task-reads.repository';
import { TaskTimelineRepository } from './task-timeline.repository';
import { TasksController } from './tasks.controller';
import { TasksService } from './tasks.service';

@Module({
  imports: [AuthModule, AgentsModule, RuntimesModule],
  controllers: [TasksController],
  providers: [QueueCommandsClient, TaskReadsRepository, TaskTimelineRepository, TasksService],
  exports: [TasksService, TaskReadsRepository],
})
export class TasksModule {}
