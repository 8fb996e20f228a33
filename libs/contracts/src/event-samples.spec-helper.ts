import type { AgentSnapshot } from './agent-snapshot.schema';
import type { EventType, PayloadOf } from './event-catalog';

// One valid payload per event type; typed as a full map so a new event type cannot ship without one.

const taskId = '0197a5c3-6f1e-7c2a-9b4d-2f1e3d4c5b6a';
const at = '2025-06-01T12:00:00.000Z';
const later = '2025-06-01T12:05:00.000Z';

/** An agent as the gateway would snapshot it into a task. */
export const SAMPLE_AGENT: AgentSnapshot = {
  name: 'Reviewer',
  instructions: 'Review pull requests; be brief.',
  model: 'claude-sonnet',
  thinkingLevel: null,
  skills: ['code-review'],
  skillVersions: [{ name: 'code-review', hash: 'a'.repeat(64) }],
  env: { REVIEW_STRICTNESS: 'high' },
  extraArgs: [],
  mcpConfig: { servers: { github: { command: 'github-mcp', args: [] } } },
  maxConcurrentTasks: 6,
  repositories: [],
};

export const SAMPLE_IDS = { taskId, runtimeId: 'runtime-claude-laptop-7', sessionId: 'session-4f2a', daemonId: 'daemon-laptop-7' };

export const EVENT_PAYLOAD_SAMPLES: { [TType in EventType]: PayloadOf<TType> } = {
  'task.enqueued': {
    taskId,
    workspaceId: 'workspace-1',
    agentId: 'agent-reviewer',
    agent: SAMPLE_AGENT,
    runtimeId: SAMPLE_IDS.runtimeId,
    source: { kind: 'issue', issueId: 'issue-42', trigger: 'assignment', commentId: null },
    priority: 2,
    prompt: 'Fix the flaky test',
    forceFreshSession: false,
    maxAttempts: 3,
    expiresAt: null,
    retryOfTaskId: null,
  },
  'task.deferred': { taskId, fireAt: later, reason: 'retry_backoff', attemptsUsed: 1 },
  'task.claimed': { taskId, attempt: 1, daemonId: SAMPLE_IDS.daemonId, runtimeId: SAMPLE_IDS.runtimeId, startBy: later },
  'task.started': {
    taskId,
    attempt: 1,
    daemonId: SAMPLE_IDS.daemonId,
    runtimeId: SAMPLE_IDS.runtimeId,
    workDir: '/var/switchyard/workspaces/agent-reviewer/issue-42',
    resumedSessionId: null,
    leaseExpiresAt: later,
  },
  'task.local_directory_awaited': {
    taskId,
    attempt: 1,
    daemonId: SAMPLE_IDS.daemonId,
    localPath: '/home/ada/code/switchyard',
    heldByTaskId: '0197a5c3-6f1e-7c2a-9b4d-2f1e3d4c5b6b',
    startBy: later,
  },
  'task.start_deadline_extended': { taskId, attempt: 1, daemonId: SAMPLE_IDS.daemonId, startBy: later },
  'task.heartbeat': { taskId, attempt: 1, daemonId: SAMPLE_IDS.daemonId, leaseExpiresAt: later },
  'task.message': {
    taskId,
    seq: 0,
    attempt: 1,
    message: { type: 'tool-use', tool: 'Bash', callId: 'call-1', input: { command: 'npm test', timeout: 120 } },
  },
  'task.completed': {
    taskId,
    attempt: 1,
    sessionId: SAMPLE_IDS.sessionId,
    output: 'Done.',
    durationMs: 83_000,
    usage: [{ provider: 'anthropic', model: 'claude-sonnet-4', inputTokens: 1200, outputTokens: 300, cacheReadTokens: 900 }],
    repositories: [
      {
        name: 'switchyard',
        checkoutMode: 'worktree',
        branch: 'switchyard/issue-42/0197a5c3',
        baseCommit: 'a'.repeat(40),
        headCommit: 'b'.repeat(40),
        filesChanged: 3,
        insertions: 40,
        deletions: 2,
        uncommittedFiles: 0,
      },
    ],
  },
  'task.failed': {
    taskId,
    attempt: 3,
    reason: 'runtime_offline',
    message: 'No heartbeat for 30 s',
    sessionId: null,
    detail: null,
    repositories: [],
  },
  'task.cancel_requested': {
    taskId,
    requestedBy: { kind: 'user', id: 'user-ada' },
    reason: 'Wrong issue',
    daemonId: SAMPLE_IDS.daemonId,
    attempt: 1,
  },
  'task.cancelled': { taskId, attempt: 1, cancelledBy: { kind: 'user', id: 'user-ada' }, reason: 'Wrong issue', repositories: [] },
  'task.timed_out': { taskId, attempt: 1, timeout: 'lease', limitMs: 30_000 },
  'task.requeued': { taskId, attempt: 1, reason: 'not_started', message: 'Claimed but not started within 60 s' },
  'task.expired': { taskId, cause: 'runtime_offline', message: 'Runtime offline for 24 h' },
  'runtime.registered': {
    daemonId: SAMPLE_IDS.daemonId,
    workspaceId: 'workspace-1',
    runtimeId: SAMPLE_IDS.runtimeId,
    identity: 'claude-code',
    provider: 'anthropic',
    version: '2.1.197',
    protocolFamily: 'claude-stream-json',
    commandName: 'claude',
    profileId: null,
    capacity: 20,
    models: ['anthropic/claude-sonnet-4-5', 'anthropic/claude-opus-4-1'],
  },
  'runtime.heartbeat': { daemonId: SAMPLE_IDS.daemonId, runtimeId: SAMPLE_IDS.runtimeId, activeTaskIds: [taskId], freeSlots: 19 },
  'runtime.offline': {
    daemonId: SAMPLE_IDS.daemonId,
    runtimeId: SAMPLE_IDS.runtimeId,
    reason: 'heartbeat_missed',
    lastHeartbeatAt: at,
  },
  'session.pinned': {
    sessionId: SAMPLE_IDS.sessionId,
    taskId,
    attempt: 1,
    runtimeId: SAMPLE_IDS.runtimeId,
    workDir: '/var/switchyard/workspaces/agent-reviewer/issue-42',
  },
  'session.retired': { sessionId: SAMPLE_IDS.sessionId, taskId, reason: 'context_overflow', message: null },
};

export const SAMPLE_OCCURRED_AT = at;
