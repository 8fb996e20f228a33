import { Injectable } from '@nestjs/common';
import { notFound } from '../common/api-error';
import { checkSkillBundle } from './skill-bundle.check';
import type { CreateSkillInput, SkillDetail, SkillView, UpdateSkillInput } from './skill.schemas';
import { SkillsRepository } from './skills.repository';

/** Skills of a workspace: each bundle is checked whole before a version is written. */
@Injectable()
export class SkillsService {
  constructor(private readonly skills: SkillsRepository) {}

  list(workspaceId: string): Promise<SkillView[]> {
    return this.skills.list(workspaceId);
  }

  async find(workspaceId: string, id: string): Promise<SkillDetail> {
    const skill = await this.skills.find(workspaceId, id);
    if (!skill) throw notFound('skill', id);
    return skill;
  }

  create(workspaceId: string, input: CreateSkillInput): Promise<SkillView> {
    return this.skills.create(workspaceId, input.name, checkSkillBundle(input.name, input.files));
  }

  async update(workspaceId: string, id: string, input: UpdateSkillInput): Promise<SkillView> {
    const current = await this.skills.find(workspaceId, id);
    if (!current) throw notFound('skill', id);
    const skill = await this.skills.addVersion(workspaceId, id, checkSkillBundle(current.name, input.files));
    if (!skill) throw notFound('skill', id);
    return skill;
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    if (!(await this.skills.remove(workspaceId, id))) throw notFound('skill', id);
  }
}
