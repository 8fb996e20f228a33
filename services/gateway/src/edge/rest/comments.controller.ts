import { Body, Controller, Get, Headers, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, Requires } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
import { AllowTaskToken, TASK_TOKEN_ERRORS } from '../auth/task-token.scope';
import type { Caller } from '../../workspace/common/caller';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';
import { IdempotencyKeyHeader, TRIGGER_ERRORS } from './issues.controller';
import { idempotencyKeySchema } from '../../workspace/tasks/task.schemas';
import { commentChangeSchema, commentListSchema, createCommentSchema, type CommentChange, type CommentView } from '../../workspace/comments/comment.schemas';
import { CommentsService } from '../../workspace/comments/comments.service';

@ApiTags('issues')
@ApiTokenAuth()
@UseGuards(AccessGuard)
@Controller('api/issues/:issueId/comments')
export class CommentsController {
  constructor(private readonly comments: CommentsService) {}

  @Get()
  @ApiOperation({ summary: 'Comments of an issue, oldest first' })
  @ApiJsonResponse(200, commentListSchema, 'The comments')
  @ApiErrorResponses('not_found', ...TASK_TOKEN_ERRORS)
  @AllowTaskToken({ kind: 'read_issue', issueParam: 'issueId' })
  @Requires('issues:read')
  async list(@CurrentCaller() caller: Caller, @Param('issueId') issueId: string): Promise<{ comments: CommentView[] }> {
    return { comments: await this.comments.list(caller.workspaceId, issueId) };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Comment on an issue; every mentioned agent gets one task (trigger `mention`)' })
  @IdempotencyKeyHeader('comment')
  @ApiJsonBody(createCommentSchema)
  @ApiJsonResponse(201, commentChangeSchema, 'The comment and the tasks its mentions triggered')
  @ApiErrorResponses('validation_failed', 'not_found', ...TRIGGER_ERRORS, ...TASK_TOKEN_ERRORS)
  @AllowTaskToken({ kind: 'comment_on_issue', issueParam: 'issueId' })
  @Requires('comments:write')
  create(
    @CurrentCaller() caller: Caller,
    @Param('issueId') issueId: string,
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey: unknown,
  ): Promise<CommentChange> {
    const input = parseInput(createCommentSchema, body, { location: 'body' });
    return this.comments.create(caller, issueId, input, parseInput(idempotencyKeySchema, idempotencyKey, { location: 'header' }));
  }
}
