import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { IssuesModule } from '../issues/issues.module';
import { WorkspaceNoticesModule } from '../notices/workspace-notices.publisher';
import { TriggersModule } from '../triggers/triggers.module';
import { CommentsRepository } from './comments.repository';
import { CommentsService } from './comments.service';

@Module({
  imports: [AgentsModule, IssuesModule, TriggersModule, WorkspaceNoticesModule],
  providers: [CommentsRepository, CommentsService],
  exports: [CommentsService, CommentsRepository],
})
export class CommentsModule {}
