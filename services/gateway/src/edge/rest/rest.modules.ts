import { Module } from '@nestjs/common';
import { AgentsModule } from '../../workspace/agents/agents.module';
import { AutopilotsModule } from '../../workspace/autopilots/autopilots.module';
import { ChatModule } from '../../workspace/chat/chat.module';
import { DaemonsModule } from '../../workspace/daemons/daemons.module';
import { CommentsModule } from '../../workspace/comments/comments.module';
import { IssuesModule } from '../../workspace/issues/issues.module';
import { ProjectsModule } from '../../workspace/projects/projects.module';
import { RuntimeProfilesModule } from '../../workspace/runtime-profiles/runtime-profiles.module';
import { RuntimesModule } from '../../workspace/runtimes/runtimes.module';
import { SkillsModule } from '../../workspace/skills/skills.module';
import { TasksModule } from '../../workspace/tasks/tasks.module';
import { TokensModule } from '../../workspace/tokens/tokens.module';
import { UsageModule } from '../../workspace/usage/usage.module';
import { WorkspacesModule } from '../../workspace/workspaces/workspaces.module';
import { AuthModule } from '../auth/auth.module';
import { PeopleModule } from '../../workspace/people/people.module';
import { AccountController } from './account.controller';
import { AuditController } from './audit.controller';
import { MembersController } from './members.controller';
import { OidcModule } from './oidc.module';
import { AgentsController } from './agents.controller';
import { AutopilotWebhookController } from './autopilot-webhook.controller';
import { AutopilotsController } from './autopilots.controller';
import { ChatController } from './chat.controller';
import { CommentsController } from './comments.controller';
import { DaemonEnrollController, DaemonsController } from './daemons.controller';
import { IssuesController } from './issues.controller';
import { ProjectRepositoriesController } from './project-repositories.controller';
import { ProjectsController } from './projects.controller';
import { RuntimeProfilesController } from './runtime-profiles.controller';
import { RuntimesController } from './runtimes.controller';
import { SecretsController } from './secrets.controller';
import { SkillsController } from './skills.controller';
import { TasksController } from './tasks.controller';
import { TokensController } from './tokens.controller';
import { UsageController } from './usage.controller';
import { WorkspacesController } from './workspaces.controller';

// One REST module per resource: its controller over the domain module that does the work, and the
// token guard. The domain modules know nothing of HTTP.

@Module({ imports: [AuthModule, WorkspacesModule], controllers: [WorkspacesController] })
export class WorkspacesRestModule {}

@Module({ imports: [AuthModule, TokensModule], controllers: [TokensController] })
export class TokensRestModule {}

@Module({ imports: [AuthModule, PeopleModule], controllers: [AccountController, MembersController, AuditController] })
export class PeopleRestModule {}

@Module({ imports: [AuthModule, RuntimesModule], controllers: [RuntimesController] })
export class RuntimesRestModule {}

@Module({ imports: [AuthModule, RuntimeProfilesModule], controllers: [RuntimeProfilesController] })
export class RuntimeProfilesRestModule {}

@Module({ imports: [AuthModule, AgentsModule, TasksModule], controllers: [AgentsController] })
export class AgentsRestModule {}

@Module({ imports: [AuthModule, SkillsModule], controllers: [SkillsController] })
export class SkillsRestModule {}

@Module({ imports: [AuthModule, TasksModule], controllers: [TasksController] })
export class TasksRestModule {}

// The secrets module comes with the projects module: a secret's deletion asks which repositories use it.
@Module({ imports: [AuthModule, ProjectsModule], controllers: [SecretsController] })
export class SecretsRestModule {}

@Module({ imports: [AuthModule, ProjectsModule], controllers: [ProjectsController, ProjectRepositoriesController] })
export class ProjectsRestModule {}

@Module({ imports: [AuthModule, IssuesModule], controllers: [IssuesController] })
export class IssuesRestModule {}

@Module({ imports: [AuthModule, CommentsModule], controllers: [CommentsController] })
export class CommentsRestModule {}

@Module({ imports: [AuthModule, ChatModule], controllers: [ChatController] })
export class ChatRestModule {}

@Module({ imports: [AuthModule, UsageModule], controllers: [UsageController] })
export class UsageRestModule {}

@Module({ imports: [AuthModule, AutopilotsModule], controllers: [AutopilotsController] })
export class AutopilotsRestModule {}

@Module({ imports: [AuthModule, DaemonsModule], controllers: [DaemonsController] })
export class DaemonsRestModule {}

/** Enrollment, authenticated by the one-time token in its body: outside the token-guarded REST modules and their OpenAPI document. */
@Module({ imports: [AuthModule, DaemonsModule], controllers: [DaemonEnrollController] })
export class DaemonEnrollModule {}

/** The webhook, authenticated by each autopilot's own secret: outside the token-guarded REST modules and their OpenAPI document. */
@Module({ imports: [AutopilotsModule], controllers: [AutopilotWebhookController] })
export class AutopilotWebhookModule {}

/** The REST API under `/api`, one module per resource; also what the OpenAPI document covers. */
export const REST_MODULES = [
  WorkspacesRestModule,
  TokensRestModule,
  PeopleRestModule,
  OidcModule,
  RuntimesRestModule,
  RuntimeProfilesRestModule,
  AgentsRestModule,
  SkillsRestModule,
  TasksRestModule,
  SecretsRestModule,
  ProjectsRestModule,
  IssuesRestModule,
  CommentsRestModule,
  ChatRestModule,
  UsageRestModule,
  AutopilotsRestModule,
  DaemonsRestModule,
] as const;
