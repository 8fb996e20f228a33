import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { WorkspaceNoticesModule } from '../live/workspace-notices.publisher';
import { TriggersModule } from '../triggers/triggers.module';
import { IssueTriggerWriter } from './issue-trigger.writer';
import { IssuesController } from './issues.controller';
import { IssuesRepository } from './issues.repository';
import { IssuesService } from './issues.service';

@Module({
  imports: [AuthModule, TriggersModule, WorkspaceNoticesModule],
  controllers: [IssuesController],
  providers: [IssuesRepository, IssuesService, IssueTriggerWriter],
  exports: [IssuesRepository, IssueTriggerWriter],
})
export class IssuesModule {}
