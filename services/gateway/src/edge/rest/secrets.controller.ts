import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiTokenGuard, CurrentCaller } from '../auth/api-token.guard';
import type { Caller } from '../../workspace/common/caller';
import { ApiError, notFound } from '../../workspace/common/api-error';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiNoContentResponse, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';
import { ProjectRepositoriesRepository } from '../../workspace/projects/project-repositories.repository';
import { createSecretSchema, secretListSchema, secretViewSchema, updateSecretSchema, type SecretView } from '../../workspace/secrets/secret.schemas';
import { SecretsRepository } from '../../workspace/secrets/secrets.repository';

@ApiTags('secrets')
@ApiTokenAuth()
@UseGuards(ApiTokenGuard)
@Controller('api/secrets')
export class SecretsController {
  constructor(
    private readonly secrets: SecretsRepository,
    private readonly repositories: ProjectRepositoriesRepository,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Secrets of the caller’s workspace, by name (never their values)' })
  @ApiJsonResponse(200, secretListSchema, 'The secrets')
  @ApiErrorResponses()
  async list(@CurrentCaller() caller: Caller): Promise<{ secrets: SecretView[] }> {
    return { secrets: await this.secrets.list(caller.workspaceId) };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Add a secret (a repository credential’s token); the value is sealed at rest and never returned' })
  @ApiJsonBody(createSecretSchema)
  @ApiJsonResponse(201, secretViewSchema, 'The secret, without its value')
  @ApiErrorResponses('validation_failed', 'secret_name_taken')
  create(@CurrentCaller() caller: Caller, @Body() body: unknown): Promise<SecretView> {
    return this.secrets.create(caller.workspaceId, parseInput(createSecretSchema, body, { location: 'body' }));
  }

  @Get(':id')
  @ApiOperation({ summary: 'One secret, without its value' })
  @ApiJsonResponse(200, secretViewSchema, 'The secret')
  @ApiErrorResponses('not_found')
  async find(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<SecretView> {
    const secret = await this.secrets.find(caller.workspaceId, id);
    if (!secret) throw notFound('secret', id);
    return secret;
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Set a new value or description (the name cannot change); tasks enqueued from now on get the new value' })
  @ApiJsonBody(updateSecretSchema)
  @ApiJsonResponse(200, secretViewSchema, 'The secret after the change, without its value')
  @ApiErrorResponses('validation_failed', 'not_found')
  async update(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: unknown): Promise<SecretView> {
    const secret = await this.secrets.update(caller.workspaceId, id, parseInput(updateSecretSchema, body, { location: 'body' }));
    if (!secret) throw notFound('secret', id);
    return secret;
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a secret no repository’s credential uses' })
  @ApiNoContentResponse('Deleted')
  @ApiErrorResponses('not_found', 'secret_in_use')
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    const secret = await this.secrets.find(caller.workspaceId, id);
    if (!secret) throw notFound('secret', id);
    const users = await this.repositories.namesUsingSecret(caller.workspaceId, secret.name);
    if (users.length > 0) {
      throw new ApiError('secret_in_use', `secret ${JSON.stringify(secret.name)} is the credential of ${users.join(', ')}`, { repositories: users });
    }
    // The foreign key refuses too, should a repository take the secret meanwhile.
    if (!(await this.secrets.remove(caller.workspaceId, id))) throw notFound('secret', id);
  }
}
