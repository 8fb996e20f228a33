import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentMember, Requires } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
import { TokenRevocations } from '../auth/token-revocations';
import type { MemberCaller } from '../../workspace/common/caller';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiNoContentResponse, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';
import { apiTokenListSchema, createApiTokenSchema, createdApiTokenSchema, listApiTokensQuerySchema, type ApiTokenView, type CreatedApiToken } from '../../workspace/tokens/api-token.schemas';
import { ApiTokensService } from '../../workspace/tokens/api-tokens.service';

@ApiTags('tokens')
@ApiTokenAuth()
@UseGuards(AccessGuard)
@Controller('api/tokens')
export class TokensController {
  constructor(
    private readonly tokens: ApiTokensService,
    private readonly revocations: TokenRevocations,
  ) {}

  @Get()
  @Requires('tokens:manage')
  @ApiOperation({ summary: 'Your API tokens in this workspace (`?all=true`: every member’s, for admins), revoked ones included; never their secrets' })
  @ApiJsonResponse(200, apiTokenListSchema, 'The tokens, oldest first')
  @ApiErrorResponses('validation_failed', 'forbidden_role')
  async list(@CurrentMember() caller: MemberCaller, @Query() query: unknown): Promise<{ tokens: ApiTokenView[] }> {
    const { all } = parseInput(listApiTokensQuerySchema, query, { location: 'query' });
    return { tokens: await this.tokens.list(caller, { all: all === 'true' }) };
  }

  @Post()
  @HttpCode(201)
  @Requires('tokens:manage')
  @ApiOperation({ summary: 'Create a personal API token in this workspace, with scopes within your role; the secret is returned this once' })
  @ApiJsonBody(createApiTokenSchema)
  @ApiJsonResponse(201, createdApiTokenSchema, 'The token, with its secret')
  @ApiErrorResponses('validation_failed', 'scope_exceeds_role')
  create(@CurrentMember() caller: MemberCaller, @Body() body: unknown): Promise<CreatedApiToken> {
    return this.tokens.create(caller, parseInput(createApiTokenSchema, body, { location: 'body' }));
  }

  @Delete(':id')
  @HttpCode(204)
  @Requires('tokens:manage')
  @ApiOperation({ summary: 'Revoke one of your API tokens (an admin: anyone’s), idempotently; requests with it are refused from now on, and WebSockets it opened are closed (code 4403) within seconds' })
  @ApiNoContentResponse('Revoked')
  @ApiErrorResponses('not_found')
  async revoke(@CurrentMember() caller: MemberCaller, @Param('id') id: string): Promise<void> {
    await this.tokens.revoke(caller, id);
    // This gateway's sockets close at once; other replicas' at their next recheck.
    this.revocations.announce(id);
  }
}
