import { Module } from '@nestjs/common';
import { SkillDistribution } from './skill-distribution';
import { SkillsRepository } from './skills.repository';
import { SkillsService } from './skills.service';

@Module({
  providers: [SkillsRepository, SkillsService, SkillDistribution],
  exports: [SkillsService, SkillDistribution],
})
export class SkillsModule {}
