import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { RepositorySnapshot, TaskSource } from '@switchyard/contracts';
import { DATA_SOURCE, SecretUnreadableError } from '@switchyard/persistence';
import { ApiError } from '../common/api-error';
import { SecretsRepository } from '../secrets/secrets.repository';
import { readIssueProject } from './issue-project.reader';
import { ProjectRepositoriesRepository } from './project-repositories.repository';
import { ProjectsRepository } from './projects.repository';
import type { RepositoryView } from './repository.schemas';

/**
 * Which repositories a task gets, as its agent snapshot's `repositories`: a task of an issue that
 * names a project of its workspace gets that project's, checked out at start; any other task
 * (chat, autopilot, quick create, an issue without a known project) is offered every repository
 * of the workspace, checked out on request. Credential secrets are opened here, in clear: the
 * queue takes them out into the task's sealed bundle before anything is stored or published.
 */
@Injectable()
export class TaskRepositoriesResolver {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly projects: ProjectsRepository,
    private readonly repositories: ProjectRepositoriesRepository,
    private readonly secrets: SecretsRepository,
  ) {}

  async forTask(workspaceId: string, source: TaskSource): Promise<RepositorySnapshot[]> {
    const project = await this.projectOf(workspaceId, source);
    const repositories = project ? await this.repositories.listOfProject(workspaceId, project.id) : await this.repositories.listOfWorkspace(workspaceId);
    const snapshots: RepositorySnapshot[] = [];
    for (const repository of repositories) snapshots.push(await this.snapshotOf({ workspaceId, repository, checkoutAtStart: project !== undefined }));
    return snapshots;
  }

  private async projectOf(workspaceId: string, source: TaskSource): Promise<{ id: string } | undefined> {
    if (source.kind !== 'issue') return undefined;
    const name = await readIssueProject(this.dataSource, { workspaceId, issueId: source.issueId });
    return name ? this.projects.findByName(workspaceId, name) : undefined;
  }

  private async snapshotOf(options: { readonly workspaceId: string; readonly repository: RepositoryView; readonly checkoutAtStart: boolean }): Promise<RepositorySnapshot> {
    const { workspaceId, repository, checkoutAtStart } = options;
    const { credential } = repository;
    return {
      name: repository.name,
      checkoutMode: repository.checkoutMode,
      url: repository.url,
      localPath: repository.localPath,
      defaultBranch: repository.defaultBranch,
      branchTemplate: repository.branchTemplate,
      credential: credential
        ? { kind: credential.kind, username: credential.username, secret: await this.openSecret({ workspaceId, repository: repository.name, secretName: credential.secretName }) }
        : null,
      checkoutAtStart,
    };
  }

  private async openSecret(options: { readonly workspaceId: string; readonly repository: string; readonly secretName: string }): Promise<string> {
    const { workspaceId, repository, secretName } = options;
    const refusal = (why: string): ApiError =>
      new ApiError('repository_secret_unreadable', `the credential secret ${JSON.stringify(secretName)} of repository ${JSON.stringify(repository)} ${why}; nothing was enqueued`, {
        repository,
        secretName,
      });
    try {
      const value = await this.secrets.openValue(workspaceId, secretName);
      // The foreign key keeps a used secret from being deleted; a miss is a defect worth naming.
      if (value === undefined) throw refusal('is missing');
      return value;
    } catch (error) {
      if (error instanceof SecretUnreadableError) throw refusal(`does not open: ${error.message}`);
      throw error;
    }
  }
}
