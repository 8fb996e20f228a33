import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentCaller, Requires } from '../auth/access.decorators';
import { AccessGuard } from '../auth/access.guard';
import type { Caller } from '../../workspace/common/caller';
import { notFound } from '../../workspace/common/api-error';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiNoContentResponse, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';
import { ProjectRepositoriesRepository } from '../../workspace/projects/project-repositories.repository';
import { ProjectsRepository } from '../../workspace/projects/projects.repository';
import {
  createRepositorySchema,
  repositoryListSchema,
  repositoryViewSchema,
  updateRepositorySchema,
  type RepositoryView,
} from '../../workspace/projects/repository.schemas';

@ApiTags('projects')
@ApiTokenAuth()
@UseGuards(AccessGuard)
@Controller('api/projects/:projectId/repositories')
export class ProjectRepositoriesController {
  constructor(
    private readonly projects: ProjectsRepository,
    private readonly repositories: ProjectRepositoriesRepository,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The project’s git repositories, by name' })
  @ApiJsonResponse(200, repositoryListSchema, 'The repositories')
  @ApiErrorResponses('not_found')
  @Requires('projects:read')
  async list(@CurrentCaller() caller: Caller, @Param('projectId') projectId: string): Promise<{ repositories: RepositoryView[] }> {
    await this.existingProject(caller, projectId);
    return { repositories: await this.repositories.listOfProject(caller.workspaceId, projectId) };
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Add a git repository: a remote checked out as a worktree per task, or a local directory used in place' })
  @ApiJsonBody(createRepositorySchema)
  @ApiJsonResponse(201, repositoryViewSchema, 'The repository')
  @ApiErrorResponses('validation_failed', 'invalid_repository', 'secret_not_found', 'not_found', 'repository_name_taken')
  @Requires('projects:manage')
  async create(@CurrentCaller() caller: Caller, @Param('projectId') projectId: string, @Body() body: unknown): Promise<RepositoryView> {
    const input = parseInput(createRepositorySchema, body, { location: 'body' });
    await this.existingProject(caller, projectId);
    return this.repositories.create({ workspaceId: caller.workspaceId, projectId }, input);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One repository of the project' })
  @ApiJsonResponse(200, repositoryViewSchema, 'The repository')
  @ApiErrorResponses('not_found')
  @Requires('projects:read')
  async find(@CurrentCaller() caller: Caller, @Param('projectId') projectId: string, @Param('id') id: string): Promise<RepositoryView> {
    const repository = await this.repositories.find({ workspaceId: caller.workspaceId, projectId, id });
    if (!repository) throw notFound('repository', id);
    return repository;
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change some settings; the result is checked as a whole (tasks already enqueued keep theirs)' })
  @ApiJsonBody(updateRepositorySchema)
  @ApiJsonResponse(200, repositoryViewSchema, 'The repository after the change')
  @ApiErrorResponses('validation_failed', 'invalid_repository', 'secret_not_found', 'not_found', 'repository_name_taken')
  @Requires('projects:manage')
  async update(@CurrentCaller() caller: Caller, @Param('projectId') projectId: string, @Param('id') id: string, @Body() body: unknown): Promise<RepositoryView> {
    const input = parseInput(updateRepositorySchema, body, { location: 'body' });
    const repository = await this.repositories.update({ workspaceId: caller.workspaceId, projectId, id }, input);
    if (!repository) throw notFound('repository', id);
    return repository;
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a repository (work dirs of tasks already enqueued keep their checkout until the daemon cleans them)' })
  @ApiNoContentResponse('Deleted')
  @ApiErrorResponses('not_found')
  @Requires('projects:manage')
  async remove(@CurrentCaller() caller: Caller, @Param('projectId') projectId: string, @Param('id') id: string): Promise<void> {
    if (!(await this.repositories.remove({ workspaceId: caller.workspaceId, projectId, id }))) throw notFound('repository', id);
  }

  private async existingProject(caller: Caller, projectId: string): Promise<void> {
    if (!(await this.projects.find(caller.workspaceId, projectId))) throw notFound('project', projectId);
  }
}
