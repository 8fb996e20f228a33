import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { MemberCaller } from '../../workspace/common/caller';
import { AuditTrail } from '../../workspace/audit/audit.trail';
import { auditPageSchema, auditQuerySchema, type AuditEventView } from '../../workspace/audit/audit.schemas';
import { CurrentMember, Requires } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
import { ApiErrorResponses, ApiJsonResponse, ApiQueryFrom, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';

@ApiTags('audit')
@ApiTokenAuth()
@UseGuards(AccessGuard)
@Controller('api/audit')
export class AuditController {
  constructor(private readonly audit: AuditTrail) {}

  @Get()
  @Requires('audit:read')
  @ApiOperation({ summary: 'The workspace’s audit trail, newest first: members, roles, invitations, tokens, secrets, daemons' })
  @ApiQueryFrom(auditQuerySchema)
  @ApiJsonResponse(200, auditPageSchema, 'A page of entries')
  @ApiErrorResponses('validation_failed', 'forbidden_role')
  list(@CurrentMember() caller: MemberCaller, @Query() query: unknown): Promise<{ events: AuditEventView[]; nextCursor: string | null }> {
    return this.audit.list(caller.workspaceId, parseInput(auditQuerySchema, query, { location: 'query' }));
  }
}
