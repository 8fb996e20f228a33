import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, Requires } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
import type { Caller } from '../../workspace/common/caller';
import { notFound } from '../../workspace/common/api-error';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiNoContentResponse, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';
import {
  createRuntimeProfileSchema,
  runtimeProfileListSchema,
  runtimeProfileViewSchema,
  unknownProtocolFamilyError,
  updateRuntimeProfileSchema,
  type RuntimeProfileView,
} from '../../workspace/runtime-profiles/runtime-profile.schemas';
import { RuntimeProfilesDistributor } from '../../workspace/runtime-profiles/runtime-profiles.distributor';
import { RuntimeProfilesRepository } from '../../workspace/runtime-profiles/runtime-profiles.repository';

@ApiTags('runtime-profiles')
@ApiTokenAuth()
@UseGuards(AccessGuard)
@Controller('api/runtime-profiles')
export class RuntimeProfilesController {
  // Every change is put for the workspace's daemons before it is answered.
  constructor(
    private readonly profiles: RuntimeProfilesRepository,
    private readonly distributor: RuntimeProfilesDistributor,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Runtime profiles of the caller’s workspace' })
  @ApiJsonResponse(200, runtimeProfileListSchema, 'The profiles, by display name')
  @ApiErrorResponses()
  @Requires('runtime_profiles:read')
  async list(@CurrentCaller() caller: Caller): Promise<{ profiles: RuntimeProfileView[] }> {
    return { profiles: await this.profiles.list(caller.workspaceId) };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Add a custom runtime: a command driven with an existing protocol family' })
  @ApiJsonBody(createRuntimeProfileSchema)
  @ApiJsonResponse(201, runtimeProfileViewSchema, 'The profile')
  @ApiErrorResponses('validation_failed', 'unknown_protocol_family', 'runtime_profile_name_taken', 'runtime_profiles_not_distributed')
  @Requires('runtime_profiles:manage')
  async create(@CurrentCaller() caller: Caller, @Body() body: unknown): Promise<RuntimeProfileView> {
    const input = parseInput(createRuntimeProfileSchema, body, { location: 'body', classify: () => unknownProtocolFamilyError(body) });
    const profile = await this.profiles.create(caller.workspaceId, input);
    await this.distributor.distribute(caller.workspaceId);
    return profile;
  }

  @Get(':id')
  @ApiOperation({ summary: 'One runtime profile' })
  @ApiJsonResponse(200, runtimeProfileViewSchema, 'The profile')
  @ApiErrorResponses('not_found')
  @Requires('runtime_profiles:read')
  async find(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<RuntimeProfileView> {
    const profile = await this.profiles.find(caller.workspaceId, id);
    if (!profile) throw notFound('runtime profile', id);
    return profile;
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change some fields of a runtime profile' })
  @ApiJsonBody(updateRuntimeProfileSchema)
  @ApiJsonResponse(200, runtimeProfileViewSchema, 'The profile after the change')
  @ApiErrorResponses('validation_failed', 'unknown_protocol_family', 'not_found', 'runtime_profile_name_taken', 'runtime_profiles_not_distributed')
  @Requires('runtime_profiles:manage')
  async update(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: unknown): Promise<RuntimeProfileView> {
    const input = parseInput(updateRuntimeProfileSchema, body, { location: 'body', classify: () => unknownProtocolFamilyError(body) });
    const profile = await this.profiles.update(caller.workspaceId, id, input);
    if (!profile) throw notFound('runtime profile', id);
    await this.distributor.distribute(caller.workspaceId);
    return profile;
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a runtime profile (runtimes daemons registered from it stay until they go offline)' })
  @ApiNoContentResponse('Deleted')
  @ApiErrorResponses('not_found', 'runtime_profiles_not_distributed')
  @Requires('runtime_profiles:manage')
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    if (!(await this.profiles.remove(caller.workspaceId, id))) throw notFound('runtime profile', id);
    await this.distributor.distribute(caller.workspaceId);
  }
}
