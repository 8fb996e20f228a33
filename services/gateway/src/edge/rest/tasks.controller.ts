import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, Requires } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
import type { Caller } from '../../workspace/common/caller';
import { notFound } from '../../workspace/common/api-error';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiQueryFrom, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';
import { TaskReadsRepository } from '../../workspace/tasks/task-reads.repository';
import { TaskTimelineRepository } from '../../workspace/tasks/task-timeline.repository';
import {
  cancelTaskSchema,
  createTaskSchema,
  idempotencyKeySchema,
  rerunTaskSchema,
  taskDetailSchema,
  taskListQuerySchema,
  taskListSchema,
  taskUsageSchema,
  timelineQuerySchema,
  timelineSchema,
  type TaskDetail,
  type TaskSummary,
  type TaskUsage,
} from '../../workspace/tasks/task.schemas';
import { TasksService } from '../../workspace/tasks/tasks.service';

const IdempotencyKeyHeader = (): MethodDecorator =>
  ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'Retrying with the same key returns the task created first instead of creating another (1-100 of A-Z a-z 0-9 _ -)',
  });

/** What the timeline route uses of Express's response: its body is JSON text already. */
interface JsonTextResponse {
  type(type: 'json'): JsonTextResponse;
  send(body: string): unknown;
}

/** The commands go to the queue over NATS; the reads come from its views and the timeline view. */
const QUEUE_ERRORS = ['queue_unavailable', 'queue_error', 'invalid_request', 'conflict'] as const;

@ApiTags('tasks')
@ApiTokenAuth()
@UseGuards(AccessGuard)
@Controller('api/tasks')
export class TasksController {
  constructor(
    private readonly tasks: TasksService,
    private readonly reads: TaskReadsRepository,
    private readonly timeline: TaskTimelineRepository,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Quick task: the agent runs the prompt (source `quick_create`)' })
  @IdempotencyKeyHeader()
  @ApiJsonBody(createTaskSchema)
  @ApiJsonResponse(201, taskDetailSchema, 'The task, queued')
  @ApiErrorResponses('validation_failed', 'not_found', 'agent_archived', 'agent_runtime_unavailable', 'skill_store_unavailable', 'repository_secret_unreadable', ...QUEUE_ERRORS)
  @Requires('tasks:run')
  create(@CurrentCaller() caller: Caller, @Body() body: unknown, @Headers('idempotency-key') idempotencyKey: unknown): Promise<TaskDetail> {
    const input = parseInput(createTaskSchema, body, { location: 'body' });
    return this.tasks.create(caller, input, parseInput(idempotencyKeySchema, idempotencyKey, { location: 'header' }));
  }

  @Get()
  @ApiOperation({ summary: 'Tasks of the caller’s workspace, newest first' })
  @ApiQueryFrom(taskListQuerySchema)
  @ApiJsonResponse(200, taskListSchema, 'One page of tasks')
  @ApiErrorResponses('validation_failed')
  @Requires('tasks:read')
  list(@CurrentCaller() caller: Caller, @Query() query: unknown): Promise<{ tasks: TaskSummary[]; nextCursor: string | null }> {
    return this.reads.list(caller.workspaceId, parseInput(taskListQuerySchema, query, { location: 'query' }));
  }

  @Get(':id')
  @ApiOperation({ summary: 'One task: status, attempt, failure, timestamps, prompt' })
  @ApiJsonResponse(200, taskDetailSchema, 'The task')
  @ApiErrorResponses('not_found')
  @Requires('tasks:read')
  async find(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<TaskDetail> {
    const task = await this.reads.detail(caller.workspaceId, id);
    if (!task) throw notFound('task', id);
    return task;
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel a task',
    description: 'A queued task ends `cancelled` at once; a running one gets `cancelRequested` and ends `cancelled` when its daemon stops it.',
  })
  @ApiJsonBody(cancelTaskSchema, 'Optional; `{}` or no body at all is fine')
  @ApiJsonResponse(200, taskDetailSchema, 'The task after the cancel')
  @ApiErrorResponses('validation_failed', 'not_found', 'terminal_state', 'stale_attempt', ...QUEUE_ERRORS)
  @Requires('tasks:cancel')
  cancel(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: unknown): Promise<TaskDetail> {
    const { reason } = parseInput(cancelTaskSchema, body, { location: 'body' });
    return this.tasks.cancel(caller, id, reason);
  }

  @Post(':id/rerun')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Run a finished task again: same prompt and source, the agent as configured now, a fresh session',
  })
  @IdempotencyKeyHeader()
  @ApiJsonBody(rerunTaskSchema, 'Optional; `{}` or no body at all uses the workspace’s default TTL')
  @ApiJsonResponse(201, taskDetailSchema, 'The new task')
  @ApiErrorResponses('validation_failed', 'not_found', 'task_not_finished', 'agent_archived', 'agent_runtime_unavailable', 'skill_store_unavailable', 'repository_secret_unreadable', ...QUEUE_ERRORS)
  @Requires('tasks:run')
  rerun(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: unknown, @Headers('idempotency-key') idempotencyKey: unknown): Promise<TaskDetail> {
    const input = parseInput(rerunTaskSchema, body, { location: 'body' });
    return this.tasks.rerun(caller, id, input, parseInput(idempotencyKeySchema, idempotencyKey, { location: 'header' }));
  }

  @Get(':id/messages')
  @ApiOperation({
    summary: 'Replay the task’s timeline in seq order (then follow it live over WebSocket from `nextSince`)',
    description: 'Pages forward with `since`; `before=end` opens the newest page, and `before=<first seq>` pages back from it.',
  })
  @ApiQueryFrom(timelineQuerySchema)
  @ApiJsonResponse(200, timelineSchema, 'One page of timeline messages')
  @ApiErrorResponses('validation_failed', 'not_found')
  @Requires('tasks:read')
  async messages(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: unknown, @Res() response: JsonTextResponse): Promise<void> {
    const page = parseInput(timelineQuerySchema, query, { location: 'query' });
    // The page is read beside the workspace check, and sent only when it passes.
    const [exists, body] = await Promise.all([this.reads.exists(caller.workspaceId, id), this.timeline.messagesJson(id, page)]);
    if (!exists) throw notFound('task', id);
    // Already the response's JSON (the stored row texts joined): sent as it is, as `res.json` would.
    response.type('json').send(body);
  }

  @Get(':id/usage')
  @ApiOperation({ summary: 'Token usage of the task per attempt, provider and model, with totals' })
  @ApiJsonResponse(200, taskUsageSchema, 'The usage')
  @ApiErrorResponses('not_found')
  @Requires('tasks:read')
  async usage(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<TaskUsage> {
    if (!(await this.reads.exists(caller.workspaceId, id))) throw notFound('task', id);
    return this.timeline.usage(id);
  }
}
