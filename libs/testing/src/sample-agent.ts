import type { AgentSnapshot } from '@switchyard/contracts';

/** An agent snapshot for tests and benches; override only what the test is about. */
export function sampleAgentSnapshot(overrides: Partial<AgentSnapshot> = {}): AgentSnapshot {
  return {
    name: 'Test agent',
    instructions: 'Do the task.',
    model: null,
    thinkingLevel: null,
    skills: [],
    skillVersions: [],
    env: {},
    extraArgs: [],
    mcpConfig: null,
    maxConcurrentTasks: 6,
    repositories: [],
    ...overrides,
  };
}
