import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, Requires } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
import type { Caller } from '../../workspace/common/caller';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiNoContentResponse, ApiQueryFrom, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';
import { TasksService } from '../../workspace/tasks/tasks.service';
import { agentListQuerySchema, agentListSchema, agentViewSchema, createAgentSchema, updateAgentSchema, type AgentView } from '../../workspace/agents/agent.schemas';
import { AgentsService } from '../../workspace/agents/agents.service';

@ApiTags('agents')
@ApiTokenAuth()
@UseGuards(AccessGuard)
@Controller('api/agents')
export class AgentsController {
  constructor(
    private readonly agents: AgentsService,
    private readonly tasks: TasksService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Agents of the caller’s workspace (env and MCP secrets masked)' })
  @ApiQueryFrom(agentListQuerySchema)
  @ApiJsonResponse(200, agentListSchema, 'The agents, by name')
  @ApiErrorResponses('validation_failed')
  @Requires('agents:read')
  async list(@CurrentCaller() caller: Caller, @Query() query: unknown): Promise<{ agents: AgentView[] }> {
    const { includeArchived } = parseInput(agentListQuerySchema, query, { location: 'query' });
    return { agents: await this.agents.list(caller.workspaceId, { includeArchived: includeArchived === 'true' }) };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an agent bound to a runtime of the caller’s workspace' })
  @ApiJsonBody(createAgentSchema)
  @ApiJsonResponse(201, agentViewSchema, 'The agent (secrets masked)')
  @ApiErrorResponses('validation_failed', 'blocked_environment_key', 'unknown_runtime', 'agent_name_taken')
  @Requires('agents:manage')
  create(@CurrentCaller() caller: Caller, @Body() body: unknown): Promise<AgentView> {
    return this.agents.create(caller.workspaceId, parseInput(createAgentSchema, body, { location: 'body' }));
  }

  @Get(':id')
  @ApiOperation({ summary: 'One agent, archived ones included (secrets masked)' })
  @ApiJsonResponse(200, agentViewSchema, 'The agent')
  @ApiErrorResponses('not_found')
  @Requires('agents:read')
  find(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<AgentView> {
    return this.agents.find(caller.workspaceId, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change some fields of an agent; tasks already created keep the configuration they were created with' })
  @ApiJsonBody(updateAgentSchema)
  @ApiJsonResponse(200, agentViewSchema, 'The agent after the change')
  @ApiErrorResponses('validation_failed', 'blocked_environment_key', 'unknown_runtime', 'not_found', 'agent_name_taken', 'agent_archived')
  @Requires('agents:manage')
  update(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: unknown): Promise<AgentView> {
    return this.agents.update(caller.workspaceId, id, parseInput(updateAgentSchema, body, { location: 'body' }));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Archive an agent (idempotent): it leaves the list and takes no new tasks; its unfinished tasks are cancelled, the others kept' })
  @ApiNoContentResponse('Archived')
  @ApiErrorResponses('not_found', 'queue_unavailable', 'queue_error')
  @Requires('agents:manage')
  async archive(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    // Archived first, so no new task starts; a failed cancel (503) is finished by a retry.
    await this.agents.archive(caller.workspaceId, id);
    await this.tasks.cancelUnfinished(caller, { kind: 'agent', agentId: id }, 'the agent was archived');
  }
}
