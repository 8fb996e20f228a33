import { z } from 'zod';
import { repositorySnapshotSchema, type RepositorySnapshot } from './repository.schema';
import { positiveIntegerSchema } from './shared-fields.schema';
import { skillVersionRefSchema, type SkillVersionRef } from './skill-bundle';
import type { JsonValue } from './unified-message.schema';

/**
 * The agent's configuration as it was when the task was created: the daemon runs the task with
 * it. The gateway owns agents; the queue keeps this copy so a claim never reads another
 * service's tables.
 */
export interface AgentSnapshot {
  name: string;
  instructions: string;
  model: string | null;
  thinkingLevel: string | null;
  /** Skill names to install in the CLI's native skills folder. */
  skills: string[];
  /**
   * Each of `skills` the workspace's store has, resolved to the version (content hash) the task
   * runs with; the daemon fetches that content from the skills object store. A name missing here
   * had no skill in the store when the task was created.
   */
  skillVersions: SkillVersionRef[];
  /** Extra environment for the agent process (never the daemon's own credentials). */
  env: Record<string, string>;
  /** Extra CLI arguments, placed after the adapter's own. */
  extraArgs: string[];
  /** MCP servers, in the neutral form the daemon writes into each CLI's native config. */
  mcpConfig: JsonValue | null;
  maxConcurrentTasks: number;
  /**
   * The code the run works in (`RepositorySnapshot`): the project's repositories, checked
   * out when the run starts, or for a task without a project its workspace's, on request. Each
   * credential's secret is a secret like the env values.
   */
  repositories: RepositorySnapshot[];
}

const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValueSchema), z.record(z.string(), jsonValueSchema)]),
);

export const agentSnapshotSchema = z.object({
  name: z.string().min(1),
  instructions: z.string(),
  model: z.string().min(1).nullable(),
  thinkingLevel: z.string().min(1).nullable(),
  skills: z.array(z.string().min(1)),
  // Absent from snapshots written before the skill store: those shipped no skill.
  skillVersions: z.array(skillVersionRefSchema).default([]),
  env: z.record(z.string(), z.string()),
  extraArgs: z.array(z.string()),
  mcpConfig: jsonValueSchema.nullable(),
  maxConcurrentTasks: positiveIntegerSchema,
  // Absent from snapshots written before repositories: those ran in an empty directory.
  repositories: z.array(repositorySnapshotSchema).default([]),
});
