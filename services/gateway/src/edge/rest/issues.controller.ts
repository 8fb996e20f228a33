import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, Requires } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
import { AllowTaskToken, TASK_TOKEN_ERRORS } from '../auth/task-token.scope';
import type { Caller } from '../../workspace/common/caller';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiNoContentResponse, ApiQueryFrom, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';
import { idempotencyKeySchema } from '../../workspace/tasks/task.schemas';
import { createIssueSchema, issueChangeSchema, issueListQuerySchema, issueListSchema, issueViewSchema, updateIssueSchema, type IssueChange, type IssueView } from '../../workspace/issues/issue.schemas';
import { IssuesService } from '../../workspace/issues/issues.service';

/** An assignment sends `task.enqueue` to the queue. */
export const TRIGGER_ERRORS = ['agent_archived', 'agent_runtime_unavailable', 'queue_unavailable', 'queue_error', 'invalid_request', 'conflict'] as const;

export const IdempotencyKeyHeader = (what: string): MethodDecorator =>
  ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: `Retrying with the same key returns the ${what} created first (and re-sends its task if the queue did not get it) instead of creating another`,
  });

@ApiTags('issues')
@ApiTokenAuth()
@UseGuards(AccessGuard)
@Controller('api/issues')
export class IssuesController {
  constructor(private readonly issues: IssuesService) {}

  @Get()
  @ApiOperation({ summary: 'Issues of the caller’s workspace, newest first' })
  @ApiQueryFrom(issueListQuerySchema)
  @ApiJsonResponse(200, issueListSchema, 'The issues')
  @ApiErrorResponses('validation_failed')
  @Requires('issues:read')
  async list(@CurrentCaller() caller: Caller, @Query() query: unknown): Promise<{ issues: IssueView[] }> {
    return { issues: await this.issues.list(caller.workspaceId, parseInput(issueListQuerySchema, query, { location: 'query' })) };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an issue; with an assignee, its agent gets a task (trigger `assignment`)' })
  @IdempotencyKeyHeader('issue')
  @ApiJsonBody(createIssueSchema)
  @ApiJsonResponse(201, issueChangeSchema, 'The issue and the task its assignment triggered')
  @ApiErrorResponses('validation_failed', 'not_found', ...TRIGGER_ERRORS, ...TASK_TOKEN_ERRORS)
  @AllowTaskToken({ kind: 'create_sub_issue' })
  @Requires('issues:write')
  create(@CurrentCaller() caller: Caller, @Body() body: unknown, @Headers('idempotency-key') idempotencyKey: unknown): Promise<IssueChange> {
    const input = parseInput(createIssueSchema, body, { location: 'body' });
    return this.issues.create(caller, input, parseInput(idempotencyKeySchema, idempotencyKey, { location: 'header' }));
  }

  @Get(':id')
  @ApiOperation({ summary: 'One issue' })
  @ApiJsonResponse(200, issueViewSchema, 'The issue')
  @ApiErrorResponses('not_found', ...TASK_TOKEN_ERRORS)
  @AllowTaskToken({ kind: 'read_issue', issueParam: 'id' })
  @Requires('issues:read')
  find(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<IssueView> {
    return this.issues.find(caller.workspaceId, id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change some fields of an issue',
    description: 'A new `assigneeAgentId` triggers a task for that agent; the same assignee again creates none (it re-sends a task the queue did not get).',
  })
  @ApiJsonBody(updateIssueSchema)
  @ApiJsonResponse(200, issueChangeSchema, 'The issue after the change, and the task its assignment triggered')
  @ApiErrorResponses('validation_failed', 'not_found', ...TRIGGER_ERRORS, ...TASK_TOKEN_ERRORS)
  @AllowTaskToken({ kind: 'change_issue_status', issueParam: 'id' })
  @Requires('issues:write')
  update(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: unknown): Promise<IssueChange> {
    return this.issues.update(caller, id, parseInput(updateIssueSchema, body, { location: 'body' }));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an issue and its comments; its children stay, without a parent; its unfinished tasks are cancelled first' })
  @ApiNoContentResponse('Deleted')
  @ApiErrorResponses('not_found', 'queue_unavailable', 'queue_error')
  @Requires('issues:write')
  delete(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    return this.issues.delete(caller, id);
  }
}
