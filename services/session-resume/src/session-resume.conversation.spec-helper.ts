import type { IssueTaskSource, SessionResolvePayload } from '@switchyard/contracts';
import { uniqueNamespace } from '@switchyard/testing';
import { T0, T1, T2, T3, T4, events } from './domain/resume.fixtures.spec-helper';

export const RUNTIME = 'runtime-1';

/** One agent on one issue of its own, so tests never see each other's tasks. */
export function conversation() {
  const agentId = uniqueNamespace('agent');
  const source: IssueTaskSource = { kind: 'issue', issueId: uniqueNamespace('issue'), trigger: 'assignment', commentId: null };
  const taskIds = [uniqueNamespace('task'), uniqueNamespace('task'), uniqueNamespace('task')] as const;
  const sessionOf = (taskId: string) => `session-${taskId}`;
  const workDirOf = (taskId: string) => `/work/${agentId}/${source.issueId}/${taskId}`;
  /** The events of a task that ran on `runtimeId` and pinned its session; `at` shifts its clock by hours. */
  const ran = (taskId: string, options: { hour?: number; runtimeId?: string } = {}) => {
    const at = (time: string) => time.replace('T12', `T${String(12 + (options.hour ?? 0)).padStart(2, '0')}`);
    const runtimeId = options.runtimeId ?? RUNTIME;
    return {
      enqueued: events.enqueued({ taskId, agentId, source, runtimeId }, at(T0)),
      started: events.started({ taskId, runtimeId, workDir: workDirOf(taskId) }, at(T1)),
      pinned: events.pinned({ taskId, runtimeId, sessionId: sessionOf(taskId), workDir: workDirOf(taskId) }, at(T2)),
      completed: events.completed({ taskId, sessionId: sessionOf(taskId) }, at(T3)),
      failed: (failure: { reason: 'iteration_limit' | 'agent_error' | 'runtime_offline'; message?: string }) =>
        events.failed({ taskId, sessionId: sessionOf(taskId), message: 'exit 1', ...failure }, at(T4)),
    };
  };
  const next = (overrides: Partial<SessionResolvePayload> = {}): SessionResolvePayload => ({
    taskId: taskIds[2],
    agentId,
    runtimeId: RUNTIME,
    source: { ...source, trigger: 'mention' },
    forceFreshSession: false,
    ...overrides,
  });
  return { agentId, source, taskIds, sessionOf, workDirOf, ran, next };
}
