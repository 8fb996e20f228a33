import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { AuthModule } from '../auth/auth.module';
import { IssuesModule } from '../issues/issues.module';
import { WorkspaceNoticesModule } from '../live/workspace-notices.publisher';
import { TriggersModule } from '../triggers/triggers.module';
import { CommentsController } from './comments.controller';
import { CommentsRepository } from './comments.repository';
import { CommentsService } from './comments.service';

@Module({
  imports: [AuthModule, AgentsModule, IssuesModule, TriggersModule, WorkspaceNoticesModule],
  controllers: [CommentsController],
  providers: [CommentsRepository, CommentsService],
})
export class CommentsModule {}
