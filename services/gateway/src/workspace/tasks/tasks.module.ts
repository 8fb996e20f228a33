import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ProjectsModule } from '../projects/projects.module';
import { RuntimesModule } from '../runtimes/runtimes.module';
import { SkillsModule } from '../skills/skills.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { QueueCommandsClient } from './queue-commands.client';
import { TaskReadsRepository } from './task-reads.repository';
import { TaskTimelineRepository } from './task-timeline.repository';
import { TasksService } from './tasks.service';

@Module({
  imports: [AgentsModule, RuntimesModule, SkillsModule, ProjectsModule, WorkspacesModule],
  providers: [QueueCommandsClient, TaskReadsRepository, TaskTimelineRepository, TasksService],
  exports: [TasksService, TaskReadsRepository, TaskTimelineRepository],
})
export class TasksModule {}
