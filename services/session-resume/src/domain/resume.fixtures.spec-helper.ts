import { createEvent, type ChatTaskSource, type EventOf, type IssueTaskSource, type PayloadOf } from '@switchyard/contracts';
import { sampleAgentSnapshot } from '@switchyard/testing';
import type { ResumeRequest } from './resume.decider';

// Events of one conversation (agent-1 on issue-7, runtime-1), at minutes T0 < T1 < T2 < T3 < T4.

export const AGENT = 'agent-1';
export const RUNTIME = 'runtime-1';
export const OTHER_RUNTIME = 'runtime-2';
export const ISSUE: IssueTaskSource = { kind: 'issue', issueId: 'issue-7', trigger: 'assignment', commentId: null };
export const CHAT: ChatTaskSource = { kind: 'chat', chatSessionId: 'chat-3', chatMessageId: 'chat-message-1' };
export const PRIOR = 'task-1';
export const NEXT = 'task-2';
export const SESSION = 'session-a';
export const WORK_DIR = '/work/agent-1/issue-7';
export const [T0, T1, T2, T3, T4] = [0, 1, 2, 3, 4].map((minute) => `2025-06-01T12:0${minute}:00.000Z`) as [string, string, string, string, string];

export const events = {
  enqueued: (overrides: Partial<PayloadOf<'task.enqueued'>> = {}, at = T0): EventOf<'task.enqueued'> =>
    createEvent({
      type: 'task.enqueued',
      occurredAt: at,
      payload: {
        taskId: PRIOR,
        workspaceId: 'workspace-1',
        agentId: AGENT,
        agent: sampleAgentSnapshot(),
        runtimeId: RUNTIME,
        source: ISSUE,
        priority: 0,
        prompt: 'Fix it',
        forceFreshSession: false,
        maxAttempts: 2,
        expiresAt: null,
        retryOfTaskId: null,
        ...overrides,
      },
    }),
  started: (overrides: Partial<PayloadOf<'task.started'>> = {}, at = T1): EventOf<'task.started'> =>
    createEvent({
      type: 'task.started',
      occurredAt: at,
      payload: { taskId: PRIOR, attempt: 1, daemonId: 'daemon-1', runtimeId: RUNTIME, workDir: WORK_DIR, resumedSessionId: null, leaseExpiresAt: T4, ...overrides },
    }),
  pinned: (overrides: Partial<PayloadOf<'session.pinned'>> = {}, at = T2): EventOf<'session.pinned'> =>
    createEvent({
      type: 'session.pinned',
      occurredAt: at,
      payload: { sessionId: SESSION, taskId: PRIOR, attempt: 1, runtimeId: RUNTIME, workDir: WORK_DIR, ...overrides },
    }),
  completed: (overrides: Partial<PayloadOf<'task.completed'>> = {}, at = T3): EventOf<'task.completed'> =>
    createEvent({
      type: 'task.completed',
      occurredAt: at,
      payload: { taskId: PRIOR, attempt: 1, sessionId: SESSION, output: 'done', durationMs: 1000, usage: [], repositories: [], ...overrides },
    }),
  failed: (overrides: Partial<PayloadOf<'task.failed'>> = {}, at = T3): EventOf<'task.failed'> =>
    createEvent({
      type: 'task.failed',
      occurredAt: at,
      payload: { taskId: PRIOR, attempt: 1, reason: 'agent_error', message: 'exit 1', sessionId: SESSION, detail: null, repositories: [], ...overrides },
    }),
  cancelled: (overrides: Partial<PayloadOf<'task.cancelled'>> = {}, at = T3): EventOf<'task.cancelled'> =>
    createEvent({
      type: 'task.cancelled',
      occurredAt: at,
      payload: { taskId: PRIOR, attempt: 1, cancelledBy: { kind: 'user', id: 'user-ada' }, reason: null, repositories: [], ...overrides },
    }),
};

export function request(overrides: Partial<ResumeRequest> = {}): ResumeRequest {
  return { taskId: NEXT, agentId: AGENT, runtimeId: RUNTIME, source: { ...ISSUE, trigger: 'mention' }, forceFreshSession: false, ...overrides };
}
