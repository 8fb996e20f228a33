import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, Requires } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
import type { Caller } from '../../workspace/common/caller';
import { notFound } from '../../workspace/common/api-error';
import { ApiErrorResponses, ApiJsonResponse, ApiQueryFrom, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';
import { UsageRepository } from '../../workspace/usage/usage.repository';
import { agentUsageQuerySchema, agentUsageSchema, issueUsageSchema, type AgentUsage, type IssueUsage } from '../../workspace/usage/usage.schemas';

/** Token totals over many tasks; one task's usage is `GET /api/tasks/:id/usage`. */
@ApiTags('usage')
@ApiTokenAuth()
@UseGuards(AccessGuard)
@Controller('api')
export class UsageController {
  constructor(private readonly usage: UsageRepository) {}

  @Get('issues/:id/usage')
  @ApiOperation({ summary: 'Token usage of the issue’s tasks per provider and model, and per task (failed and cancelled runs count)' })
  @ApiJsonResponse(200, issueUsageSchema, 'The usage')
  @ApiErrorResponses('not_found')
  @Requires('issues:read')
  async ofIssue(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<IssueUsage> {
    if (!(await this.usage.issueExists(caller.workspaceId, id))) throw notFound('issue', id);
    return this.usage.ofIssue(caller.workspaceId, id);
  }

  @Get('agents/:id/usage')
  @ApiOperation({ summary: 'Token usage of the agent’s tasks per provider and model (archived agents too)' })
  @ApiQueryFrom(agentUsageQuerySchema)
  @ApiJsonResponse(200, agentUsageSchema, 'The usage')
  @ApiErrorResponses('validation_failed', 'not_found')
  @Requires('agents:read')
  async ofAgent(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: unknown): Promise<AgentUsage> {
    const { since } = parseInput(agentUsageQuerySchema, query, { location: 'query' });
    if (!(await this.usage.agentExists(caller.workspaceId, id))) throw notFound('agent', id);
    return this.usage.ofAgent(caller.workspaceId, id, since);
  }
}
