import { Module } from '@nestjs/common';
import { CommentsModule } from '../comments/comments.module';
import { IssuesModule } from '../issues/issues.module';
import { WorkspaceNoticesModule } from '../notices/workspace-notices.publisher';
import { TasksModule } from '../tasks/tasks.module';
import { IssueResultsConsumer } from './issue-results.consumer';
import { IssueResultWriter } from './issue-result.writer';

/** A task of an issue writes back to it: status, the agent's result, a failure note. No routes: its controller is a message handler. */
@Module({
  imports: [IssuesModule, CommentsModule, TasksModule, WorkspaceNoticesModule],
  providers: [IssueResultWriter],
  controllers: [IssueResultsConsumer],
})
export class IssueResultsModule {}
