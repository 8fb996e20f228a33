import { Body, Controller, Get, HttpCode, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiTokenGuard, CurrentCaller } from '../auth/api-token.guard';
import type { Caller } from '../../workspace/common/caller';
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
@UseGuards(ApiTokenGuard)
@Controller('api')
export class WorkspacesController {
  constructor(private readonly workspaces: WorkspacesRepository) {}

  @Get('workspace')
  @ApiOperation({ summary: 'The workspace of the caller’s API token' })
  @ApiJsonResponse(200, workspaceViewSchema, 'The workspace')
  @ApiErrorResponses()
  async current(@CurrentCaller() caller: Caller): Promise<WorkspaceView> {
    const workspace = await this.workspaces.find(caller.workspaceId);
    if (!workspace) throw notFound('workspace', caller.workspaceId);
    return workspace;
  }

  @Patch('workspace')
  @ApiOperation({
    summary: 'Change the settings of the caller’s workspace',
    description: '`queuedTaskTtlSeconds`: the default TTL of tasks created from now on (a task may override it with `expiresInSeconds`); null removes it.',
  })
  @ApiJsonBody(updateWorkspaceSchema)
  @ApiJsonResponse(200, workspaceViewSchema, 'The workspace after the change')
  @ApiErrorResponses('validation_failed')
  async update(@CurrentCaller() caller: Caller, @Body() body: unknown): Promise<WorkspaceView> {
    const workspace = await this.workspaces.update(caller.workspaceId, parseInput(updateWorkspaceSchema, body, { location: 'body' }));
    if (!workspace) throw notFound('workspace', caller.workspaceId);
    return workspace;
  }

  @Post('workspaces')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a workspace and its first API token (shown this once)',
    description: 'Any authenticated caller may create a workspace; the new token is the only way into it.',
  })
  @ApiJsonBody(createWorkspaceSchema)
  @ApiJsonResponse(201, createdWorkspaceSchema, 'The workspace and its first token')
  @ApiErrorResponses('validation_failed', 'workspace_exists')
  create(@Body() body: unknown): Promise<CreatedWorkspace> {
    return this.workspaces.create(parseInput(createWorkspaceSchema, body, { location: 'body' }));
  }
}
