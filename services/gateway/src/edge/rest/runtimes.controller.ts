import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PROTOCOL_FAMILIES } from '@switchyard/contracts';
import { CurrentCaller, Requires } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
import type { Caller } from '../../workspace/common/caller';
import { notFound } from '../../workspace/common/api-error';
import { ApiErrorResponses, ApiJsonResponse, ApiQueryFrom, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';
import { protocolFamilyView } from '../../workspace/runtimes/protocol-family.catalog';
import { protocolFamilyListSchema, type ProtocolFamilyView } from '../../workspace/runtimes/protocol-family.schemas';
import { runtimeListQuerySchema, runtimeListSchema, runtimeViewSchema, type RuntimeView } from '../../workspace/runtimes/runtime.schemas';
import { RuntimeViewRepository } from '../../workspace/runtimes/runtime-view.repository';

@ApiTags('runtimes')
@ApiTokenAuth()
@UseGuards(AccessGuard)
@Controller('api/runtimes')
export class RuntimesController {
  constructor(private readonly runtimes: RuntimeViewRepository) {}

  @Get()
  @ApiOperation({ summary: 'Runtimes registered by the daemons of the caller’s workspace' })
  @ApiQueryFrom(runtimeListQuerySchema)
  @ApiJsonResponse(200, runtimeListSchema, 'The runtimes')
  @ApiErrorResponses('validation_failed')
  @Requires('runtimes:read')
  async list(@CurrentCaller() caller: Caller, @Query() query: unknown): Promise<{ runtimes: RuntimeView[] }> {
    const { status } = parseInput(runtimeListQuerySchema, query, { location: 'query' });
    const runtimes = await this.runtimes.list(caller.workspaceId);
    return { runtimes: status ? runtimes.filter((runtime) => runtime.status === status) : runtimes };
  }

  // Declared before `:id`, which would otherwise take `families` for an id.
  @Get('families')
  @ApiOperation({ summary: 'Every protocol family a runtime or runtime profile can use, with its capabilities' })
  @ApiJsonResponse(200, protocolFamilyListSchema, 'The families, in the contracts’ order')
  @ApiErrorResponses()
  @Requires('runtimes:read')
  families(): { families: ProtocolFamilyView[] } {
    return { families: PROTOCOL_FAMILIES.map(protocolFamilyView) };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One runtime of the caller’s workspace' })
  @ApiJsonResponse(200, runtimeViewSchema, 'The runtime')
  @ApiErrorResponses('not_found')
  @Requires('runtimes:read')
  async find(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<RuntimeView> {
    const runtime = await this.runtimes.find(caller.workspaceId, id);
    if (!runtime) throw notFound('runtime', id);
    return runtime;
  }
}
