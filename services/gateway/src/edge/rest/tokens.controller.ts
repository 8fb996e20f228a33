import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiTokenGuard, CurrentApiTokenCaller, CurrentCaller } from '../auth/api-token.guard';
import { TokenRevocations } from '../auth/token-revocations';
import type { ApiTokenCaller, Caller } from '../../workspace/common/caller';
import { notFound } from '../../workspace/common/api-error';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiNoContentResponse, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';
import { apiTokenListSchema, createApiTokenSchema, createdApiTokenSchema, type ApiTokenView, type CreatedApiToken } from '../../workspace/tokens/api-token.schemas';
import { ApiTokensRepository } from '../../workspace/tokens/api-tokens.repository';

@ApiTags('tokens')
@ApiTokenAuth()
@UseGuards(ApiTokenGuard)
@Controller('api/tokens')
export class TokensController {
  constructor(
    private readonly tokens: ApiTokensRepository,
    private readonly revocations: TokenRevocations,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List the API tokens of the caller’s workspace, revoked ones included; never their secrets' })
  @ApiJsonResponse(200, apiTokenListSchema, 'The tokens, oldest first')
  @ApiErrorResponses()
  async list(@CurrentApiTokenCaller() caller: ApiTokenCaller): Promise<{ tokens: ApiTokenView[] }> {
    return { tokens: await this.tokens.list(caller.workspaceId, caller.tokenId) };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an API token in the caller’s workspace; the secret is returned this once' })
  @ApiJsonBody(createApiTokenSchema)
  @ApiJsonResponse(201, createdApiTokenSchema, 'The token, with its secret')
  @ApiErrorResponses('validation_failed')
  create(@CurrentCaller() caller: Caller, @Body() body: unknown): Promise<CreatedApiToken> {
    const input = parseInput(createApiTokenSchema, body, { location: 'body' });
    return this.tokens.create({ workspaceId: caller.workspaceId, name: input.name });
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke an API token (idempotent); requests with it are refused from now on, and WebSockets it opened are closed (code 4403) within seconds' })
  @ApiNoContentResponse('Revoked')
  @ApiErrorResponses('not_found')
  async revoke(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    if (!(await this.tokens.revoke(caller.workspaceId, id))) throw notFound('API token', id);
    // This gateway's sockets close at once; other replicas' at their next recheck.
    this.revocations.announce(id);
  }
}
