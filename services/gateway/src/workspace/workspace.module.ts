import { Module } from '@nestjs/common';
import { AutopilotsModule } from './autopilots/autopilots.module';
import { ChatRepliesModule } from './chat-replies/chat-replies.module';
import { ChildIssuesModule } from './child-issues/child-issues.module';
import { IssueResultsModule } from './issue-results/issue-results.module';
import { RuntimesModule } from './runtimes/runtimes.module';

/**
 * The workspace domain's own work, whoever calls: the message handlers (chat replies, child_done
 * notes, issue results, the runtimes view) and the autopilot scheduler. The REST modules of the edge import the
 * domain modules they serve; nothing here imports the edge (lint boundary).
 */
@Module({ imports: [ChildIssuesModule, ChatRepliesModule, IssueResultsModule, RuntimesModule, AutopilotsModule] })
export class WorkspaceModule {}
