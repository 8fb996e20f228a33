import type { AgentSnapshot, RepositorySnapshot, SkillVersionRef, TaskSource } from '@switchyard/contracts';
import type { AgentRecord } from '../agents/agents.repository';

/**
 * The agent as the queue keeps it with the task (`agentSnapshotSchema`): the daemon runs the task
 * with this copy, so later edits of the agent do not change a task already created. Secrets travel
 * in clear here, inside the control plane only. `skillVersions` are the agent's skills resolved in
 * the skill store (`SkillDistribution`); a copy for redaction only needs none.
 */
export function agentSnapshotOf(agent: AgentRecord, skillVersions: readonly SkillVersionRef[] = [], repositories: readonly RepositorySnapshot[] = []): AgentSnapshot {
  const hasServers = Object.keys(agent.mcpServers).length > 0;
  return {
    name: agent.name,
    instructions: agent.instructions,
    model: agent.model,
    thinkingLevel: agent.thinkingLevel,
    skills: [...agent.skills],
    skillVersions: skillVersions.map((version) => ({ name: version.name, hash: version.hash })),
    env: { ...agent.env },
    extraArgs: [...agent.extraArgs],
    // The neutral MCP form the daemon reads: `{ servers: { <name>: { command | url, ... } } }`.
    mcpConfig: hasServers ? { servers: agent.mcpServers } : null,
    maxConcurrentTasks: agent.maxConcurrentTasks,
    repositories: repositories.map((repository) => ({ ...repository, credential: repository.credential ? { ...repository.credential } : null })),
  };
}

/** What a rerun is enqueued as: the same source, an issue's trigger becoming `rerun`. */
export function rerunSourceOf(source: TaskSource): TaskSource {
  return source.kind === 'issue' ? { ...source, trigger: 'rerun', commentId: null } : source;
}
