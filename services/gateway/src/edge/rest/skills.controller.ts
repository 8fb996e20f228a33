import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, Requires } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
import type { Caller } from '../../workspace/common/caller';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiNoContentResponse, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';
import { createSkillSchema, skillDetailSchema, skillListSchema, skillViewSchema, updateSkillSchema, type SkillDetail, type SkillView } from '../../workspace/skills/skill.schemas';
import { SkillsService } from '../../workspace/skills/skills.service';

@ApiTags('skills')
@ApiTokenAuth()
@UseGuards(AccessGuard)
@Controller('api/skills')
export class SkillsController {
  constructor(private readonly skills: SkillsService) {}

  @Get()
  @ApiOperation({ summary: 'Skills of the caller’s workspace, current versions (files left out)' })
  @ApiJsonResponse(200, skillListSchema, 'The skills, by name')
  @ApiErrorResponses()
  @Requires('skills:read')
  async list(@CurrentCaller() caller: Caller): Promise<{ skills: SkillView[] }> {
    return { skills: await this.skills.list(caller.workspaceId) };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Add a skill: a folder of SKILL.md plus text files, stored as version 1' })
  @ApiJsonBody(createSkillSchema)
  @ApiJsonResponse(201, skillViewSchema, 'The skill')
  @ApiErrorResponses('validation_failed', 'invalid_skill_bundle', 'skill_name_taken')
  @Requires('skills:manage')
  create(@CurrentCaller() caller: Caller, @Body() body: unknown): Promise<SkillView> {
    return this.skills.create(caller.workspaceId, parseInput(createSkillSchema, body, { location: 'body' }));
  }

  @Get(':id')
  @ApiOperation({ summary: 'One skill with the files of its current version' })
  @ApiJsonResponse(200, skillDetailSchema, 'The skill')
  @ApiErrorResponses('not_found')
  @Requires('skills:read')
  find(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<SkillDetail> {
    return this.skills.find(caller.workspaceId, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Replace the skill’s files: a new version when the content hash changes (tasks already created keep theirs)' })
  @ApiJsonBody(updateSkillSchema)
  @ApiJsonResponse(200, skillViewSchema, 'The skill after the change')
  @ApiErrorResponses('validation_failed', 'invalid_skill_bundle', 'not_found')
  @Requires('skills:manage')
  update(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: unknown): Promise<SkillView> {
    return this.skills.update(caller.workspaceId, id, parseInput(updateSkillSchema, body, { location: 'body' }));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a skill and its versions; agents naming it get it reported not installed, tasks already created still install theirs' })
  @ApiNoContentResponse('Deleted')
  @ApiErrorResponses('not_found')
  @Requires('skills:manage')
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    await this.skills.remove(caller.workspaceId, id);
  }
}
