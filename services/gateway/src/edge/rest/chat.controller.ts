import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, Requires } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
import type { Caller } from '../../workspace/common/caller';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiNoContentResponse, ApiQueryFrom, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';
import { IdempotencyKeyHeader, TRIGGER_ERRORS } from './issues.controller';
import { idempotencyKeySchema } from '../../workspace/tasks/task.schemas';
import {
  chatMessageChangeSchema,
  chatMessageListSchema,
  chatSessionListQuerySchema,
  chatSessionListSchema,
  chatSessionViewSchema,
  createChatSessionSchema,
  postChatMessageSchema,
  type ChatMessageChange,
  type ChatMessageView,
  type ChatSessionView,
} from '../../workspace/chat/chat.schemas';
import { ChatService } from '../../workspace/chat/chat.service';

@ApiTags('chat')
@ApiTokenAuth()
@UseGuards(AccessGuard)
@Controller('api/chat-sessions')
export class ChatController {
  constructor(private readonly chat: ChatService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Start a chat session with an agent' })
  @ApiJsonBody(createChatSessionSchema)
  @ApiJsonResponse(201, chatSessionViewSchema, 'The session')
  @ApiErrorResponses('validation_failed', 'not_found', 'agent_archived', 'agent_runtime_unavailable')
  @Requires('chat:write')
  create(@CurrentCaller() caller: Caller, @Body() body: unknown): Promise<ChatSessionView> {
    return this.chat.createSession(caller.workspaceId, parseInput(createChatSessionSchema, body, { location: 'body' }));
  }

  @Get()
  @ApiOperation({ summary: 'Chat sessions of the caller’s workspace, newest first' })
  @ApiQueryFrom(chatSessionListQuerySchema)
  @ApiJsonResponse(200, chatSessionListSchema, 'The sessions')
  @ApiErrorResponses('validation_failed')
  @Requires('chat:read')
  async list(@CurrentCaller() caller: Caller, @Query() query: unknown): Promise<{ chatSessions: ChatSessionView[] }> {
    return { chatSessions: await this.chat.listSessions(caller.workspaceId, parseInput(chatSessionListQuerySchema, query, { location: 'query' })) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One chat session' })
  @ApiJsonResponse(200, chatSessionViewSchema, 'The session')
  @ApiErrorResponses('not_found')
  @Requires('chat:read')
  find(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<ChatSessionView> {
    return this.chat.findSession(caller.workspaceId, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a chat session and its messages; its unfinished tasks are cancelled first' })
  @ApiNoContentResponse('Deleted')
  @ApiErrorResponses('not_found', 'queue_unavailable', 'queue_error')
  @Requires('chat:write')
  delete(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    return this.chat.deleteSession(caller, id);
  }

  @Get(':id/messages')
  @ApiOperation({ summary: 'Messages of a chat session, oldest first' })
  @ApiJsonResponse(200, chatMessageListSchema, 'The messages')
  @ApiErrorResponses('not_found')
  @Requires('chat:read')
  async messages(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<{ messages: ChatMessageView[] }> {
    return { messages: await this.chat.listMessages(caller.workspaceId, id) };
  }

  @Post(':id/messages')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Send a message: it becomes its own task (trigger `chat`), never merged into a running one',
    description: 'A body of exactly `/new` creates no task; the next message’s task starts a fresh CLI session (`forceFreshSession`).',
  })
  @IdempotencyKeyHeader('message')
  @ApiJsonBody(postChatMessageSchema)
  @ApiJsonResponse(201, chatMessageChangeSchema, 'The message and its task')
  @ApiErrorResponses('validation_failed', 'not_found', ...TRIGGER_ERRORS)
  @Requires('chat:write')
  post(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: unknown, @Headers('idempotency-key') idempotencyKey: unknown): Promise<ChatMessageChange> {
    const input = parseInput(postChatMessageSchema, body, { location: 'body' });
    return this.chat.post(caller, id, input, parseInput(idempotencyKeySchema, idempotencyKey, { location: 'header' }));
  }
}
