import { Inject, Injectable } from '@nestjs/common';
import { encodeSkillBundle, workspaceSkillsObjectStore, type SkillVersionRef } from '@switchyard/contracts';
import { MESSAGING_CONNECTION, MessagingError, provisionObjectStores, putObjectIfAbsent, type MessagingConnection } from '@switchyard/messaging';
import { ApiError } from '../common/api-error';
import { SkillsRepository } from './skills.repository';

/**
 * Resolves an agent's skill names to the versions a task runs with, and puts each version's
 * content in its workspace's skills object store (`skills-<workspaceId>`, keyed by its hash) before
 * the task is enqueued, so a daemon of that workspace that claims it can always fetch what the
 * claim names, and a daemon of another workspace cannot read it at all.
 */
@Injectable()
export class SkillDistribution {
  // Buckets and objects are never deleted: one created or stored is there for good.
  private readonly createdBuckets = new Set<string>();
  private readonly stored = new Set<string>();

  constructor(
    private readonly skills: SkillsRepository,
    @Inject(MESSAGING_CONNECTION) private readonly connection: MessagingConnection,
  ) {}

  /** In the agent's order; names without a skill in the store are left out (the daemon reports them not found). */
  async versionsForTask(workspaceId: string, names: readonly string[]): Promise<SkillVersionRef[]> {
    const versions = await this.skills.currentVersions(workspaceId, names);
    const byName = new Map(versions.map((version) => [version.name, version]));
    const resolved: SkillVersionRef[] = [];
    for (const name of names) {
      const version = byName.get(name);
      if (!version) continue;
      const storedKey = `${workspaceId}/${version.hash}`;
      if (!this.stored.has(storedKey)) {
        await this.store({ workspaceId, name: version.name, hash: version.hash, data: encodeSkillBundle(version.files) });
        this.stored.add(storedKey);
      }
      resolved.push({ name, hash: version.hash });
    }
    return resolved;
  }

  private async store(version: { workspaceId: string; name: string; hash: string; data: Uint8Array }): Promise<void> {
    const bucket = workspaceSkillsObjectStore(version.workspaceId);
    try {
      if (!this.createdBuckets.has(bucket.name)) {
        // Created on a workspace's first distribution (after a restart: once more, which changes nothing).
        await provisionObjectStores(this.connection, [bucket]);
        this.createdBuckets.add(bucket.name);
      }
      await putObjectIfAbsent(this.connection, { bucket: bucket.name, name: version.hash, data: version.data });
    } catch (error) {
      if (!(error instanceof MessagingError)) throw error;
      throw new ApiError('skill_store_unavailable', `skill ${version.name} (version ${version.hash}) could not be stored for the task: ${error.message}`);
    }
  }
}
