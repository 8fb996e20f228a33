import { Module } from '@nestjs/common';
import { WorkspaceNoticesModule } from '../notices/workspace-notices.publisher';
import { TriggersModule } from '../triggers/triggers.module';
import { IssueTriggerWriter } from './issue-trigger.writer';
import { IssuesRepository } from './issues.repository';
import { IssuesService } from './issues.service';

@Module({
  imports: [TriggersModule, WorkspaceNoticesModule],
  providers: [IssuesRepository, IssuesService, IssueTriggerWriter],
  exports: [IssuesRepository, IssueTriggerWriter, IssuesService],
})
export class IssuesModule {}
