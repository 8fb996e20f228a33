import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, Requires } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
import type { Caller } from '../../workspace/common/caller';
import { notFound } from '../../workspace/common/api-error';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiNoContentResponse, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';
import {
  createProjectSchema,
  projectDetailSchema,
  projectListSchema,
  projectRenameError,
  projectViewSchema,
  updateProjectSchema,
  type ProjectDetail,
  type ProjectView,
} from '../../workspace/projects/project.schemas';
import { ProjectRepositoriesRepository } from '../../workspace/projects/project-repositories.repository';
import { ProjectsRepository } from '../../workspace/projects/projects.repository';

@ApiTags('projects')
@ApiTokenAuth()
@UseGuards(AccessGuard)
@Controller('api/projects')
export class ProjectsController {
  constructor(
    private readonly projects: ProjectsRepository,
    private readonly repositories: ProjectRepositoriesRepository,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Projects of the caller’s workspace, by name' })
  @ApiJsonResponse(200, projectListSchema, 'The projects')
  @ApiErrorResponses()
  @Requires('projects:read')
  async list(@CurrentCaller() caller: Caller): Promise<{ projects: ProjectView[] }> {
    return { projects: await this.projects.list(caller.workspaceId) };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Add a project; an issue whose `project` is its name runs in its repositories' })
  @ApiJsonBody(createProjectSchema)
  @ApiJsonResponse(201, projectViewSchema, 'The project')
  @ApiErrorResponses('validation_failed', 'project_name_taken')
  @Requires('projects:manage')
  create(@CurrentCaller() caller: Caller, @Body() body: unknown): Promise<ProjectView> {
    return this.projects.create(caller.workspaceId, parseInput(createProjectSchema, body, { location: 'body' }));
  }

  @Get(':id')
  @ApiOperation({ summary: 'One project with its repositories' })
  @ApiJsonResponse(200, projectDetailSchema, 'The project')
  @ApiErrorResponses('not_found')
  @Requires('projects:read')
  async find(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<ProjectDetail> {
    const project = await this.projects.find(caller.workspaceId, id);
    if (!project) throw notFound('project', id);
    return { ...project, repositories: await this.repositories.listOfProject(caller.workspaceId, id) };
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change a project’s description (its name cannot change: issues name it)' })
  @ApiJsonBody(updateProjectSchema)
  @ApiJsonResponse(200, projectViewSchema, 'The project after the change')
  @ApiErrorResponses('validation_failed', 'not_found')
  @Requires('projects:manage')
  async update(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: unknown): Promise<ProjectView> {
    const input = parseInput(updateProjectSchema, body, { location: 'body', classify: () => projectRenameError(body) });
    const project = await this.projects.update(caller.workspaceId, id, input);
    if (!project) throw notFound('project', id);
    return project;
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a project without repositories (issues naming it keep the name, and run like issues without a project)' })
  @ApiNoContentResponse('Deleted')
  @ApiErrorResponses('not_found', 'project_not_empty')
  @Requires('projects:manage')
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    if (!(await this.projects.remove(caller.workspaceId, id))) throw notFound('project', id);
  }
}
