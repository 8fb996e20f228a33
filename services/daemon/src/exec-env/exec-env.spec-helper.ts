import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ClaimedTask } from '@switchyard/contracts';
import { sampleAgentSnapshot } from '@switchyard/testing';

/** A real temp directory per test; `remove()` in afterEach. */
export async function createTemporaryDirectory(): Promise<{ path: string; remove: () => Promise<void> }> {
  const directory = await mkdtemp(path.join(tmpdir(), 'switchyard-exec-env-'));
  return { path: directory, remove: () => rm(directory, { recursive: true, force: true }) };
}

export function sampleClaimedTask(overrides: Partial<ClaimedTask> = {}): ClaimedTask {
  return {
    taskId: '0190f3a2-7c1e-7000-8000-00000000a001',
    attempt: 1,
    workspaceId: 'workspace-1',
    agentId: 'agent-1',
    runtimeId: 'daemon-1-claude-code',
    source: { kind: 'issue', issueId: 'issue-1', trigger: 'assignment', commentId: null },
    prompt: 'Fix the build.',
    forceFreshSession: false,
    startBy: '2030-01-01T00:00:00.000Z',
    agent: sampleAgentSnapshot(),
    sealedSecrets: null,
    taskToken: 'stt_secret-task-token-value',
    leaseToken: 'lease-token-of-attempt-1-secret',
    ...overrides,
  };
}
