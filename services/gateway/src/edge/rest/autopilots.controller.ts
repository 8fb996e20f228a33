import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, Requires } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
import type { Caller } from '../../workspace/common/caller';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiNoContentResponse, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';
import { idempotencyKeySchema } from '../../workspace/tasks/task.schemas';
import {
  autopilotFiringSchema,
  autopilotListSchema,
  autopilotViewSchema,
  createAutopilotSchema,
  createdAutopilotSchema,
  runAutopilotSchema,
  updateAutopilotSchema,
  type AutopilotFiring,
  type AutopilotView,
  type CreatedAutopilot,
} from '../../workspace/autopilots/autopilot.schemas';
import { AutopilotsService } from '../../workspace/autopilots/autopilots.service';

/** A firing sends `task.enqueue` to the queue (through an issue's assignment in `create_issue` mode). */
export const FIRING_ERRORS = ['agent_archived', 'agent_runtime_unavailable', 'payload_too_large', 'queue_unavailable', 'queue_error', 'invalid_request', 'conflict'] as const;

export const FiringIdempotencyKeyHeader = (): MethodDecorator =>
  ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'Retrying with the same key answers the firing made first (and re-sends its task if the queue did not get it) instead of firing again',
  });

@ApiTags('autopilots')
@ApiTokenAuth()
@UseGuards(AccessGuard)
@Controller('api/autopilots')
export class AutopilotsController {
  constructor(private readonly autopilots: AutopilotsService) {}

  @Get()
  @ApiOperation({ summary: 'Autopilots of the caller’s workspace, newest first' })
  @ApiJsonResponse(200, autopilotListSchema, 'The autopilots')
  @ApiErrorResponses()
  @Requires('autopilots:read')
  async list(@CurrentCaller() caller: Caller): Promise<{ autopilots: AutopilotView[] }> {
    return { autopilots: await this.autopilots.list(caller.workspaceId) };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an autopilot; its webhook secret is returned this once' })
  @ApiJsonBody(createAutopilotSchema)
  @ApiJsonResponse(201, createdAutopilotSchema, 'The autopilot and its webhook secret')
  @ApiErrorResponses('validation_failed', 'agent_archived', 'autopilot_name_taken')
  @Requires('autopilots:manage')
  create(@CurrentCaller() caller: Caller, @Body() body: unknown): Promise<CreatedAutopilot> {
    return this.autopilots.create(caller.workspaceId, parseInput(createAutopilotSchema, body, { location: 'body' }));
  }

  @Get(':id')
  @ApiOperation({ summary: 'One autopilot (never its secret)' })
  @ApiJsonResponse(200, autopilotViewSchema, 'The autopilot')
  @ApiErrorResponses('not_found')
  @Requires('autopilots:read')
  find(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<AutopilotView> {
    return this.autopilots.find(caller.workspaceId, id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change some fields of an autopilot',
    description: 'A new `schedule`, or `enabled: true` on a disabled autopilot, counts due minutes from now: nothing missed before fires.',
  })
  @ApiJsonBody(updateAutopilotSchema)
  @ApiJsonResponse(200, autopilotViewSchema, 'The autopilot after the change')
  @ApiErrorResponses('validation_failed', 'not_found', 'agent_archived', 'autopilot_name_taken')
  @Requires('autopilots:manage')
  update(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: unknown): Promise<AutopilotView> {
    return this.autopilots.update(caller.workspaceId, id, parseInput(updateAutopilotSchema, body, { location: 'body' }));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an autopilot; the tasks and issues it made stay' })
  @ApiNoContentResponse('Deleted')
  @ApiErrorResponses('not_found')
  @Requires('autopilots:manage')
  delete(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    return this.autopilots.delete(caller.workspaceId, id);
  }

  @Post(':id/run')
  @HttpCode(201)
  @ApiOperation({ summary: 'Fire the autopilot now (trigger `manual`), with an optional JSON payload; works while it is disabled' })
  @FiringIdempotencyKeyHeader()
  @ApiJsonBody(runAutopilotSchema)
  @ApiJsonResponse(201, autopilotFiringSchema, 'The task (and in `create_issue` mode the issue) the firing made')
  @ApiErrorResponses('validation_failed', 'not_found', ...FIRING_ERRORS)
  @Requires('autopilots:run')
  run(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: unknown, @Headers('idempotency-key') idempotencyKey: unknown): Promise<AutopilotFiring> {
    const input = parseInput(runAutopilotSchema, body, { location: 'body' });
    return this.autopilots.run(caller.workspaceId, id, input.payload, parseInput(idempotencyKeySchema, idempotencyKey, { location: 'header' }));
  }

  @Post(':id/webhook-secret')
  @HttpCode(201)
  @ApiOperation({ summary: 'Replace the webhook secret; the new one is returned this once and the old one stops working' })
  @ApiJsonResponse(201, createdAutopilotSchema, 'The autopilot and its new webhook secret')
  @ApiErrorResponses('not_found')
  @Requires('autopilots:manage')
  rotateSecret(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<CreatedAutopilot> {
    return this.autopilots.rotateSecret(caller.workspaceId, id);
  }
}
