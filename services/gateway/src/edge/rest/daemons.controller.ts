import { AuditTrail } from '../../workspace/audit/audit.trail';
import { actorOf } from '../../workspace/common/caller';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CallerAuthenticator } from '../auth/caller.authenticator';
import { CurrentCaller, Public, Requires } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
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
@UseGuards(AccessGuard)
@Controller('api')
export class DaemonsController {
  constructor(
    private readonly enrollment: DaemonEnrollmentService,
    private readonly audit: AuditTrail,
  ) {}

  @Post('daemon-enrollments')
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a one-time, expiring token with which one daemon enrolls into the caller’s workspace; the secret is returned this once' })
  @ApiJsonResponse(201, createdEnrollmentSchema, 'The token, with its secret')
  @ApiErrorResponses('enrollment_unavailable')
  @Requires('daemons:manage')
  async create(@CurrentCaller() caller: Caller): Promise<CreatedEnrollment> {
    const created = await this.enrollment.createEnrollment(caller.workspaceId);
    await this.audit.record({ workspaceId: caller.workspaceId, actor: actorOf(caller), action: 'daemon.enrollment_created', target: { kind: 'daemon_enrollment', id: created.id }, details: { expiresAt: created.expiresAt } });
    return created;
  }

  @Get('daemons')
  @ApiOperation({ summary: 'List the daemons enrolled in the caller’s workspace, revoked ones included' })
  @ApiJsonResponse(200, daemonListSchema, 'The daemons, oldest first')
  @ApiErrorResponses()
  @Requires('daemons:read')
  async list(@CurrentCaller() caller: Caller): Promise<{ daemons: DaemonView[] }> {
    return { daemons: await this.enrollment.list(caller.workspaceId) };
  }

  @Delete('daemons/:id')
  @ApiOperation({ summary: 'Revoke a daemon (idempotent): NATS disconnects it at once and refuses it from now on' })
  @ApiJsonResponse(200, daemonViewSchema, 'The daemon, with its revocation time')
  @ApiErrorResponses('not_found', 'enrollment_unavailable')
  @Requires('daemons:manage')
  async revoke(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<DaemonView> {
    const daemon = await this.enrollment.revoke(caller.workspaceId, id);
    if (!daemon) throw notFound('daemon', id);
    await this.audit.record({ workspaceId: caller.workspaceId, actor: actorOf(caller), action: 'daemon.revoked', target: { kind: 'daemon', id }, details: { name: daemon.name } });
    return daemon;
  }
}

/** Enrollment itself: the daemon has no API token, only the one-time enrollment token in the body. */
@ApiTags('daemons')
@Controller('api/daemons/enroll')
export class DaemonEnrollController {
  constructor(
    private readonly enrollment: DaemonEnrollmentService,
    private readonly authenticator: CallerAuthenticator,
    private readonly audit: AuditTrail,
  ) {}

  @Public('the one-time enrollment token in the body is its credential')
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
    const enrolled = checked.value;
    await this.audit.record({ workspaceId: enrolled.workspaceId, actor: { kind: 'daemon', id: enrolled.daemonId }, action: 'daemon.enrolled', target: { kind: 'daemon', id: enrolled.daemonId }, details: { name: input.name } });
    return enrolled;
  }
}
