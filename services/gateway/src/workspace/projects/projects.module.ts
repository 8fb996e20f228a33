import { Module } from '@nestjs/common';
import { SecretsModule } from '../secrets/secrets.module';
import { ProjectRepositoriesRepository } from './project-repositories.repository';
import { ProjectsRepository } from './projects.repository';
import { TaskRepositoriesResolver } from './task-repositories.resolver';

/** Projects and their git repositories, and which of them a task gets (`TaskRepositoriesResolver`). */
@Module({
  imports: [SecretsModule],
  providers: [ProjectsRepository, ProjectRepositoriesRepository, TaskRepositoriesResolver],
  exports: [ProjectsRepository, ProjectRepositoriesRepository, TaskRepositoriesResolver, SecretsModule],
})
export class ProjectsModule {}
