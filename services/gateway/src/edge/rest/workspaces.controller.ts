import { Body, Controller, Get, HttpCode, Inject, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG } from '../../gateway.injection-keys';
import { CurrentAccount, CurrentMember, Requires, SignedIn, type AccountCaller } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
import type { MemberCaller } from '../../workspace/common/caller';
import { notFound } from '../../workspace/common/api-error';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';
import {
  createWorkspaceSchema,
  createdWorkspaceSchema,
  updateWorkspaceSchema,
  workspaceViewSchema,
  type CreatedWorkspace,
  type WorkspaceView,
} from '../../workspace/workspaces/workspace.schemas';
import { WorkspacesRepository } from '../../workspace/workspaces/workspaces.repository';

@ApiTags('workspaces')
@ApiTokenAuth()
@UseGuards(AccessGuard)
@Controller('api')
export class WorkspacesController {
  constructor(
    private readonly workspaces: WorkspacesRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Get('workspace')
  @Requires('workspace:read')
  @ApiOperation({ summary: 'The workspace the request acts in (the API token’s, or the one a session names)' })
  @ApiJsonResponse(200, workspaceViewSchema, 'The workspace')
  @ApiErrorResponses()
  async current(@CurrentMember() caller: MemberCaller): Promise<WorkspaceView> {
    const workspace = await this.workspaces.find(caller.workspaceId);
    if (!workspace) throw notFound('workspace', caller.workspaceId);
    return workspace;
  }

  @Patch('workspace')
  @Requires('workspace:manage')
  @ApiOperation({
    summary: 'Change the settings of the workspace',
    description: '`queuedTaskTtlSeconds`: the default TTL of tasks created from now on (a task may override it with `expiresInSeconds`); null removes it.',
  })
  @ApiJsonBody(updateWorkspaceSchema)
  @ApiJsonResponse(200, workspaceViewSchema, 'The workspace after the change')
  @ApiErrorResponses('validation_failed', 'forbidden_role')
  async update(@CurrentMember() caller: MemberCaller, @Body() body: unknown): Promise<WorkspaceView> {
    const workspace = await this.workspaces.update(caller.workspaceId, parseInput(updateWorkspaceSchema, body, { location: 'body' }));
    if (!workspace) throw notFound('workspace', caller.workspaceId);
    return workspace;
  }

  @Post('workspaces')
  @HttpCode(201)
  @SignedIn()
  @ApiOperation({
    summary: 'Create a workspace: you own it, and get a first personal API token in it (shown this once)',
    description: 'The id is generated (`ws-` and 20 hex digits). One person may own at most GATEWAY_MAX_OWNED_WORKSPACES workspaces.',
  })
  @ApiJsonBody(createWorkspaceSchema)
  @ApiJsonResponse(201, createdWorkspaceSchema, 'The workspace, your role and your first token')
  @ApiErrorResponses('validation_failed', 'workspace_limit')
  create(@CurrentAccount() account: AccountCaller, @Body() body: unknown): Promise<CreatedWorkspace> {
    return this.workspaces.create(parseInput(createWorkspaceSchema, body, { location: 'body' }), { userId: account.userId, maxOwned: this.config.GATEWAY_MAX_OWNED_WORKSPACES });
  }
}
