// Tasks as the gateway answers them (services/gateway/src/workspace/tasks/task.schemas.ts,
// usage/usage.schemas.ts; docs/architecture/gateway.md "Tasks").
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './http-client';

export const TASK_STATUSES = ['queued', 'deferred', 'dispatched', 'waiting_local_directory', 'running', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

const FINISHED_STATUSES: readonly string[] = ['completed', 'failed', 'cancelled'];

/** Finished tasks can be rerun, unfinished ones cancelled. */
export function isFinishedTaskStatus(status: string): boolean {
  return FINISHED_STATUSES.includes(status);
}

export const TASK_STATUS_LABELS: Record<TaskStatus, string> = {
  queued: 'Queued',
  deferred: 'Deferred',
  dispatched: 'Dispatched',
  waiting_local_directory: 'Waiting for its local directory',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function taskStatusLabel(status: string): string {
  return (TASK_STATUS_LABELS as Record<string, string | undefined>)[status] ?? status;
}

/** What the latest attempt that reported any left in one repository of the work dir. */
export interface RepositoryWork {
  readonly name: string;
  readonly checkoutMode: 'worktree' | 'local_directory';
  readonly branch: string | null;
  readonly baseCommit: string | null;
  readonly headCommit: string | null;
  readonly filesChanged: number;
  readonly insertions: number;
  readonly deletions: number;
  readonly uncommittedFiles: number;
}

export interface TaskSummary {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly agentId: string;
  readonly runtimeId: string;
  readonly sourceKind: 'issue' | 'chat' | 'autopilot' | 'quick_create';
  readonly issueId: string | null;
  readonly chatSessionId: string | null;
  readonly priority: number;
  readonly attempt: number;
  readonly maxAttempts: number;
  readonly cancelRequested: boolean;
  readonly failureReason: string | null;
  readonly retryOfTaskId: string | null;
  readonly repositories: readonly RepositoryWork[];
  readonly connection: 'connected' | 'reconnecting' | null;
  readonly reconnectingSince: string | null;
  readonly enqueuedAt: string;
  readonly terminalAt: string | null;
  readonly updatedAt: string;
}

export interface TaskDetail extends TaskSummary {
  readonly agentName: string;
  readonly prompt: string;
  readonly forceFreshSession: boolean;
  readonly expiresAt: string | null;
  readonly startedAt: string | null;
  readonly failure: { readonly reason: string; readonly message: string } | null;
  readonly cancellation: { readonly by: { readonly kind: string; readonly id: string }; readonly reason: string | null } | null;
}

/** One task of an issue, as the issue's usage lists them (the one route that lists an issue's tasks). */
export interface IssueTaskReference {
  readonly taskId: string;
  readonly agentId: string;
  readonly status: TaskStatus;
  readonly enqueuedAt: string;
}

export interface TokenUsageRow {
  readonly attempt: number;
  readonly provider: string;
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

export const taskKeys = {
  all: ['tasks'] as const,
  ofIssue: (issueId: string) => [...taskKeys.all, 'of-issue', issueId] as const,
  detail: (taskId: string) => [...taskKeys.all, 'detail', taskId] as const,
  usage: (taskId: string) => [...taskKeys.all, 'usage', taskId] as const,
  ofAgent: (agentId: string) => [...taskKeys.all, 'of-agent', agentId] as const,
};

const path = (taskId: string) => `/api/tasks/${encodeURIComponent(taskId)}`;

export const tasksApi = {
  find: (taskId: string) => api.get<TaskDetail>(path(taskId)),
  cancel: (taskId: string) => api.post<TaskDetail>(`${path(taskId)}/cancel`, {}),
  rerun: (taskId: string) => api.post<TaskDetail>(`${path(taskId)}/rerun`, {}),
  usage: async (taskId: string) => (await api.get<{ usage: TokenUsageRow[] }>(`${path(taskId)}/usage`)).usage,
  /** `GET /api/issues/:id/usage` lists every task of the issue, oldest first: answered newest first. */
  ofIssue: async (issueId: string) => {
    const usage = await api.get<{ tasks: IssueTaskReference[] }>(`/api/issues/${encodeURIComponent(issueId)}/usage`);
    return [...usage.tasks].reverse();
  },
  /** The agent's latest tasks (one page of 200): which issues it worked on lately. */
  ofAgent: async (agentId: string) =>
    (await api.get<{ tasks: TaskSummary[]; nextCursor: string | null }>(`/api/tasks?agentId=${encodeURIComponent(agentId)}&limit=200`)).tasks,
};

export function useIssueTasks(issueId: string) {
  return useQuery({ queryKey: taskKeys.ofIssue(issueId), queryFn: () => tasksApi.ofIssue(issueId) });
}

/**
 * One task's detail. A live task is read again now and then: `connection` (reconnecting) changes
 * without a status change, so no live frame says it.
 */
export function useTask(taskId: string) {
  return useQuery({
    queryKey: taskKeys.detail(taskId),
    queryFn: () => tasksApi.find(taskId),
    refetchInterval: (query) => (query.state.data && isFinishedTaskStatus(query.state.data.status) ? false : 15_000),
  });
}

export function useTaskUsage(taskId: string, enabled: boolean) {
  return useQuery({ queryKey: taskKeys.usage(taskId), queryFn: () => tasksApi.usage(taskId), enabled });
}

/** The ids of the issues the agent's latest tasks worked on; nothing is asked without an agent. */
export function useIssuesWorkedOnBy(agentId: string | undefined) {
  return useQuery({
    queryKey: taskKeys.ofAgent(agentId ?? ''),
    queryFn: async () => new Set((await tasksApi.ofAgent(agentId ?? '')).flatMap((task) => (task.issueId ? [task.issueId] : []))),
    enabled: agentId !== undefined,
  });
}

/** Cancel a task; `issueId`, when the task is one of an issue's: that task list is read again. */
export function useCancelTask(issueId: string | undefined) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: tasksApi.cancel,
    onSuccess: (task) => {
      queries.setQueryData(taskKeys.detail(task.taskId), task);
      return issueId ? queries.invalidateQueries({ queryKey: taskKeys.ofIssue(issueId) }) : undefined;
    },
  });
}

export function useRerunTask(issueId: string | undefined) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: tasksApi.rerun,
    onSuccess: (task) => {
      queries.setQueryData(taskKeys.detail(task.taskId), task);
      return issueId ? queries.invalidateQueries({ queryKey: taskKeys.ofIssue(issueId) }) : undefined;
    },
  });
}
