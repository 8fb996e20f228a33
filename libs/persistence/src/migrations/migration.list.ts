import type { MigrationInterface } from 'typeorm';
import { FoundationTables1795988600000 } from '../schema/record/migrations/1795988600000-foundation-tables.migration';
import { TaskQueue1795988700000 } from '../schema/queue/migrations/1795988700000-task-queue.migration';
import { TaskToken1795988800000 } from '../schema/queue/migrations/1795988800000-task-token.migration';
import { TaskTimeline1795988900000 } from '../schema/transcript/migrations/1795988900000-task-timeline.migration';
import { GatewayDomain1795989000000 } from '../schema/gateway/migrations/1795989000000-gateway-domain.migration';
import { TaskListIndex1795989100000 } from '../schema/queue/migrations/1795989100000-task-list-index.migration';
import { SessionResumeIndex1795989200000 } from '../schema/session-resume/migrations/1795989200000-session-resume-index.migration';
import { IssuesChat1795989300000 } from '../schema/gateway/migrations/1795989300000-issues-chat.migration';
import { Autopilots1795989500000 } from '../schema/gateway/migrations/1795989500000-autopilots.migration';
import { RuntimeModels1795989600000 } from '../schema/gateway/migrations/1795989600000-runtime-models.migration';
import { ProcessedCommandSender1795989700000 } from '../schema/record/migrations/1795989700000-processed-command-sender.migration';
import { Daemons1795989800000 } from '../schema/gateway/migrations/1795989800000-daemons.migration';
import { AttemptLeaseToken1795989900000 } from '../schema/queue/migrations/1795989900000-attempt-lease-token.migration';
import { TaskSecrets1795990000000 } from '../schema/queue/migrations/1795990000000-task-secrets.migration';
import { Skills1795990100000 } from '../schema/gateway/migrations/1795990100000-skills.migration';
import { CommentTask1795990200000 } from '../schema/gateway/migrations/1795990200000-comment-task.migration';
import { IssueInReview1795990250000 } from '../schema/gateway/migrations/1795990250000-issue-in-review.migration';
import { ProjectsRepositories1795990300000 } from '../schema/gateway/migrations/1795990300000-projects-repositories.migration';
import { LocalDirectoryWait1795990400000 } from '../schema/queue/migrations/1795990400000-local-directory-wait.migration';
import { TimelineNotice1795990800000 } from '../schema/transcript/migrations/1795990800000-timeline-notice.migration';
import { WorkspaceQueuedTaskTtl1795991500000 } from '../schema/gateway/migrations/1795991500000-workspace-queued-task-ttl.migration';
import { RuntimeOnlineSince1795991600000 } from '../schema/queue/migrations/1795991600000-runtime-online-since.migration';
import { People1795991700000 } from '../schema/gateway/migrations/1795991700000-people.migration';
import { TimelineEntryJson1795991800000 } from '../schema/transcript/migrations/1795991800000-timeline-entry-json.migration';
import { TimelineKeysetFunctions1795991900000 } from '../schema/transcript/migrations/1795991900000-timeline-keyset-functions.migration';
import { ToolCallLookupIndexes1795992000000 } from '../schema/transcript/migrations/1795992000000-tool-call-lookup-indexes.migration';

/**
 * Every migration of the system, oldest first: one schema history, applied by one runner before
 * any service starts. Each file lives in its table owner's folder (`schema/<owner>/migrations`).
 * Append new migrations at the end; never edit or reorder applied ones.
 */
export const allMigrations: ReadonlyArray<new () => MigrationInterface> = [
  FoundationTables1795988600000,
  TaskQueue1795988700000,
  TaskToken1795988800000,
  TaskTimeline1795988900000,
  GatewayDomain1795989000000,
  TaskListIndex1795989100000,
  SessionResumeIndex1795989200000,
  IssuesChat1795989300000,
  Autopilots1795989500000,
  RuntimeModels1795989600000,
  ProcessedCommandSender1795989700000,
  Daemons1795989800000,
  AttemptLeaseToken1795989900000,
  TaskSecrets1795990000000,
  Skills1795990100000,
  CommentTask1795990200000,
  IssueInReview1795990250000,
  ProjectsRepositories1795990300000,
  LocalDirectoryWait1795990400000,
  TimelineNotice1795990800000,
  WorkspaceQueuedTaskTtl1795991500000,
  RuntimeOnlineSince1795991600000,
  People1795991700000,
  TimelineEntryJson1795991800000,
  TimelineKeysetFunctions1795991900000,
  ToolCallLookupIndexes1795992000000,
];
