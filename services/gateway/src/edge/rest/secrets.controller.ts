import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, Requires } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
import { actorOf, type Caller } from '../../workspace/common/caller';
import { AuditTrail } from '../../workspace/audit/audit.trail';
import { ApiError, notFound } from '../../workspace/common/api-error';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiNoContentResponse, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';
import { ProjectRepositoriesRepository } from '../../workspace/projects/project-repositories.repository';
import { createSecretSchema, secretListSchema, secretViewSchema, updateSecretSchema, type SecretView } from '../../workspace/secrets/secret.schemas';
import { SecretsRepository } from '../../workspace/secrets/secrets.repository';

@ApiTags('secrets')
@ApiTokenAuth()
@UseGuards(AccessGuard)
@Controller('api/secrets')
export class SecretsController {
  constructor(
    private readonly secrets: SecretsRepository,
    private readonly repositories: ProjectRepositoriesRepository,
    private readonly audit: AuditTrail,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Secrets of the caller’s workspace, by name (never their values)' })
  @ApiJsonResponse(200, secretListSchema, 'The secrets')
  @ApiErrorResponses()
  @Requires('secrets:read')
  async list(@CurrentCaller() caller: Caller): Promise<{ secrets: SecretView[] }> {
    return { secrets: await this.secrets.list(caller.workspaceId) };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Add a secret (a repository credential’s token); the value is sealed at rest and never returned' })
  @ApiJsonBody(createSecretSchema)
  @ApiJsonResponse(201, secretViewSchema, 'The secret, without its value')
  @ApiErrorResponses('validation_failed', 'secret_name_taken')
  @Requires('secrets:manage')
  async create(@CurrentCaller() caller: Caller, @Body() body: unknown): Promise<SecretView> {
    const secret = await this.secrets.create(caller.workspaceId, parseInput(createSecretSchema, body, { location: 'body' }));
    await this.recordChange(caller, 'secret.created', secret);
    return secret;
  }

  @Get(':id')
  @ApiOperation({ summary: 'One secret, without its value' })
  @ApiJsonResponse(200, secretViewSchema, 'The secret')
  @ApiErrorResponses('not_found')
  @Requires('secrets:read')
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
  @Requires('secrets:manage')
  async update(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: unknown): Promise<SecretView> {
    const input = parseInput(updateSecretSchema, body, { location: 'body' });
    const secret = await this.secrets.update(caller.workspaceId, id, input);
    if (!secret) throw notFound('secret', id);
    await this.recordChange(caller, 'secret.updated', secret, { valueChanged: input.value !== undefined });
    return secret;
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a secret no repository’s credential uses' })
  @ApiNoContentResponse('Deleted')
  @ApiErrorResponses('not_found', 'secret_in_use')
  @Requires('secrets:manage')
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    const secret = await this.secrets.find(caller.workspaceId, id);
    if (!secret) throw notFound('secret', id);
    const users = await this.repositories.namesUsingSecret(caller.workspaceId, secret.name);
    if (users.length > 0) {
      throw new ApiError('secret_in_use', `secret ${JSON.stringify(secret.name)} is the credential of ${users.join(', ')}`, { repositories: users });
    }
    // The foreign key refuses too, should a repository take the secret meanwhile.
    if (!(await this.secrets.remove(caller.workspaceId, id))) throw notFound('secret', id);
    await this.recordChange(caller, 'secret.deleted', secret);
  }

  /** Recorded once the change is committed: names and ids, never a value. */
  private recordChange(caller: Caller, action: 'secret.created' | 'secret.updated' | 'secret.deleted', secret: SecretView, details: Record<string, unknown> = {}): Promise<void> {
    return this.audit.record({ workspaceId: caller.workspaceId, actor: actorOf(caller), action, target: { kind: 'secret', id: secret.id }, details: { name: secret.name, ...details } });
  }
}
