import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG } from '../../gateway.injection-keys';
import type { MemberCaller } from '../../workspace/common/caller';
import { MembersRepository } from '../../workspace/people/members.repository';
import { MembershipService } from '../../workspace/people/membership.service';
import { InvitationsRepository } from '../../workspace/people/invitations.repository';
import {
  createInvitationSchema,
  createdInvitationSchema,
  invitationListSchema,
  memberListSchema,
  updateMemberSchema,
  type CreatedInvitation,
  type InvitationView,
  type MemberView,
} from '../../workspace/people/people.schemas';
import { CurrentMember, Requires } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
import { TokenRevocations } from '../auth/token-revocations';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiNoContentResponse, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';

@ApiTags('members')
@ApiTokenAuth()
@UseGuards(AccessGuard)
@Controller('api')
export class MembersController {
  constructor(
    private readonly members: MembersRepository,
    private readonly membership: MembershipService,
    private readonly invitations: InvitationsRepository,
    private readonly revocations: TokenRevocations,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Get('members')
  @Requires('members:read')
  @ApiOperation({ summary: 'The workspace’s members and their roles' })
  @ApiJsonResponse(200, memberListSchema, 'The members, oldest first')
  @ApiErrorResponses()
  async list(@CurrentMember() caller: MemberCaller): Promise<{ members: MemberView[] }> {
    return { members: await this.members.list(caller.workspaceId) };
  }

  @Patch('members/:userId')
  @Requires('members:manage')
  @HttpCode(204)
  @ApiOperation({ summary: 'Change a member’s role (only an owner makes or unmakes an owner; a workspace keeps at least one)' })
  @ApiJsonBody(updateMemberSchema)
  @ApiNoContentResponse('Changed')
  @ApiErrorResponses('validation_failed', 'not_found', 'owner_required', 'last_owner')
  async update(@CurrentMember() caller: MemberCaller, @Param('userId') userId: string, @Body() body: unknown): Promise<void> {
    await this.membership.changeRole(caller, { userId, role: parseInput(updateMemberSchema, body, { location: 'body' }).role });
  }

  @Delete('members/:userId')
  @Requires('members:manage')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a member; their API tokens of this workspace are revoked with it' })
  @ApiNoContentResponse('Removed')
  @ApiErrorResponses('not_found', 'owner_required', 'last_owner')
  async remove(@CurrentMember() caller: MemberCaller, @Param('userId') userId: string): Promise<void> {
    for (const tokenId of await this.membership.remove(caller, userId)) this.revocations.announce(tokenId);
  }

  @Post('invitations')
  @Requires('members:manage')
  @HttpCode(201)
  @ApiOperation({ summary: 'Invite someone with a one-time link (optionally for one email); the link is shown this once' })
  @ApiJsonBody(createInvitationSchema)
  @ApiJsonResponse(201, createdInvitationSchema, 'The invitation with its link')
  @ApiErrorResponses('validation_failed')
  async invite(@CurrentMember() caller: MemberCaller, @Body() body: unknown, @Req() request: { readonly protocol?: string; readonly headers: Readonly<Record<string, string | string[] | undefined>> }): Promise<CreatedInvitation> {
    const input = parseInput(createInvitationSchema, body, { location: 'body' });
    const { invitation, token } = await this.membership.invite(caller, { role: input.role, email: input.email, expiresInHours: input.expiresInHours });
    return { ...invitation, token, link: `${publicBaseOf(this.config, request)}/invitations/${token}` };
  }

  @Get('invitations')
  @Requires('members:manage')
  @ApiOperation({ summary: 'The workspace’s invitations, newest first, never their secrets' })
  @ApiJsonResponse(200, invitationListSchema, 'The invitations')
  @ApiErrorResponses()
  async invitationsList(@CurrentMember() caller: MemberCaller): Promise<{ invitations: InvitationView[] }> {
    return { invitations: await this.invitations.list(caller.workspaceId) };
  }

  @Delete('invitations/:id')
  @Requires('members:manage')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke an invitation not yet accepted' })
  @ApiNoContentResponse('Revoked')
  @ApiErrorResponses('not_found')
  async revokeInvitation(@CurrentMember() caller: MemberCaller, @Param('id') id: string): Promise<void> {
    await this.membership.revokeInvitation(caller, id);
  }
}

/** Links point at GATEWAY_PUBLIC_URL, else at the host the request came to. */
export function publicBaseOf(config: Pick<GatewayConfig, 'GATEWAY_PUBLIC_URL'>, request: { readonly protocol?: string; readonly headers: Readonly<Record<string, string | string[] | undefined>> }): string {
  if (config.GATEWAY_PUBLIC_URL) return config.GATEWAY_PUBLIC_URL;
  const host = request.headers['host'];
  return `${request.protocol ?? 'http'}://${Array.isArray(host) ? host[0] : (host ?? 'localhost')}`;
}
