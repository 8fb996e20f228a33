import { AgentsModule } from './agents/agents.module';
import { AutopilotsModule } from './autopilots/autopilots.module';
import { ChatModule } from './chat/chat.module';
import { CommentsModule } from './comments/comments.module';
import { IssuesModule } from './issues/issues.module';
import { RuntimeProfilesModule } from './runtime-profiles/runtime-profiles.module';
import { RuntimesModule } from './runtimes/runtimes.module';
import { TasksModule } from './tasks/tasks.module';
import { TokensModule } from './tokens/tokens.module';
import { UsageModule } from './usage/usage.module';
import { WorkspacesModule } from './workspaces/workspaces.module';

/** The REST API under `/api`, one module per resource; also what the OpenAPI document covers. */
export const REST_MODULES = [WorkspacesModule, TokensModule, RuntimesModule, RuntimeProfilesModule, AgentsModule, TasksModule, IssuesModule, CommentsModule, ChatModule, UsageModule, AutopilotsModule] as const;
