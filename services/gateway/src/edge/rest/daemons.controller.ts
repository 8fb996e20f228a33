import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiTokenAuthenticator } from '../auth/api-token.authenticator';
import { ApiTokenGuard, CurrentCaller } from '../auth/api-token.guard';
import { AuthRateLimitedError } from '../auth/auth-rate-limited.error';
import type { Caller } from '../../workspace/common/caller';
import { ApiError, notFound } from '../../workspace/common/api-error';
import { DaemonEnrollmentService } from '../../workspace/daemons/daemon-enrollment.service';
import {
  createdEnrollmentSchema,
  daemonListSchema,
  daemonViewSchema,
  enrollDaemonSchema,
  enrolledDaemonSchema,
  type CreatedEnrollment,
  type DaemonView,
  type EnrolledDaemon,
} from '../../workspace/daemons/daemon.schemas';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';

@ApiTags('daemons')
@ApiTokenAuth()
@UseGuards(ApiTokenGuard)
@Controller('api')
export class DaemonsController {
  constructor(private readonly enrollment: DaemonEnrollmentService) {}

  @Post('daemon-enrollments')
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a one-time, expiring token with which one daemon enrolls into the caller’s workspace; the secret is returned this once' })
  @ApiJsonResponse(201, createdEnrollmentSchema, 'The token, with its secret')
  @ApiErrorResponses('enrollment_unavailable')
  create(@CurrentCaller() caller: Caller): Promise<CreatedEnrollment> {
    return this.enrollment.createEnrollment(caller.workspaceId);
  }

  @Get('daemons')
  @ApiOperation({ summary: 'List the daemons enrolled in the caller’s workspace, revoked ones included' })
  @ApiJsonResponse(200, daemonListSchema, 'The daemons, oldest first')
  @ApiErrorResponses()
  async list(@CurrentCaller() caller: Caller): Promise<{ daemons: DaemonView[] }> {
    return { daemons: await this.enrollment.list(caller.workspaceId) };
  }

  @Delete('daemons/:id')
  @ApiOperation({ summary: 'Revoke a daemon (idempotent): NATS disconnects it at once and refuses it from now on' })
  @ApiJsonResponse(200, daemonViewSchema, 'The daemon, with its revocation time')
  @ApiErrorResponses('not_found', 'enrollment_unavailable')
  async revoke(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<DaemonView> {
    const daemon = await this.enrollment.revoke(caller.workspaceId, id);
    if (!daemon) throw notFound('daemon', id);
    return daemon;
  }
}

/** Enrollment itself: the daemon has no API token, only the one-time enrollment token in the body. */
@ApiTags('daemons')
@Controller('api/daemons/enroll')
export class DaemonEnrollController {
  constructor(
    private readonly enrollment: DaemonEnrollmentService,
    private readonly authenticator: ApiTokenAuthenticator,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Enroll a daemon with a one-time token: it sends its public keys and gets its id and NATS user JWT' })
  @ApiJsonBody(enrollDaemonSchema)
  @ApiJsonResponse(201, enrolledDaemonSchema, 'The daemon’s id, workspace and user JWT')
  @ApiErrorResponses('validation_failed', 'enrollment_refused', 'auth_rate_limited', 'enrollment_unavailable')
  async enroll(@Body() body: unknown, @Req() request: { readonly socket: { readonly remoteAddress?: string } }): Promise<EnrolledDaemon> {
    const input = parseInput(enrollDaemonSchema, body, { location: 'body' });
    // A wrong enrollment token counts against the address like a wrong API token.
    const checked = await this.authenticator.checkSecret(request.socket.remoteAddress, () => this.enrollment.enroll(input));
    if (checked.outcome === 'rate_limited') throw new AuthRateLimitedError(checked.retryAfterSeconds);
    if (checked.outcome === 'refused') throw new ApiError('enrollment_refused', 'the enrollment token is unknown, expired or already used');
    return checked.value;
  }
}
