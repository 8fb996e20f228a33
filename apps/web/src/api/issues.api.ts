// Issues, their comments, and what the board and issue page pick from (agents, projects, members),
// as the gateway answers them (services/gateway/src/workspace/issues/issue.schemas.ts,
// comments/comment.schemas.ts; docs/architecture/gateway.md).
import { keepPreviousData, useMutation, useMutationState, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from './http-client';
import { taskKeys } from './tasks.api';

export const ISSUE_STATUSES = ['backlog', 'todo', 'in_progress', 'in_review', 'done', 'cancelled'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

export const ISSUE_STATUS_LABELS: Record<IssueStatus, string> = {
  backlog: 'Backlog',
  todo: 'To do',
  in_progress: 'In progress',
  in_review: 'In review',
  done: 'Done',
  cancelled: 'Cancelled',
};

export const ISSUE_PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;
export type IssuePriority = (typeof ISSUE_PRIORITIES)[number];

export interface Issue {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly status: IssueStatus;
  readonly priority: IssuePriority;
  readonly assigneeAgentId: string | null;
  readonly parentIssueId: string | null;
  readonly project: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface TriggeredTask {
  readonly agentId: string;
  readonly taskId: string;
  readonly trigger: 'assignment' | 'mention' | 'chat';
}

/** A create or change answers with the issue and the task its assignment triggered. */
export interface IssueChange extends Issue {
  readonly tasks: readonly TriggeredTask[];
}

export interface CreateIssueInput {
  readonly title: string;
  readonly description?: string;
  readonly status?: IssueStatus;
  readonly priority?: IssuePriority;
  readonly assigneeAgentId?: string | null;
  readonly project?: string | null;
}

export type UpdateIssueInput = Partial<Pick<Issue, 'title' | 'description' | 'status' | 'priority' | 'assigneeAgentId' | 'project'>>;

export interface Actor {
  readonly kind: 'user' | 'api_token' | 'daemon' | 'system' | 'agent';
  readonly id: string;
}

export interface IssueComment {
  readonly id: string;
  readonly issueId: string;
  readonly author: Actor;
  readonly body: string;
  readonly mentionedAgentIds: readonly string[];
  readonly createdAt: string;
}

/** What the pages read of an agent: enough to name and assign it. */
export interface AgentSummary {
  readonly id: string;
  readonly name: string;
  readonly model: string | null;
  readonly runtimeId: string;
}

export interface ProjectSummary {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
}

export interface MemberSummary {
  readonly userId: string;
  readonly email: string;
  readonly displayName: string;
}

export interface IssueListFilters {
  readonly assigneeAgentId?: string;
  /** The API answers at most this many, newest first (1-500); it has no cursor. */
  readonly limit: number;
}

export const ISSUE_LIST_MAXIMUM = 500;

// Keys are namespaced: other pages keep their own `agents` or `members` queries in other shapes.
export const issueKeys = {
  all: ['issues'] as const,
  lists: () => [...issueKeys.all, 'list'] as const,
  list: (filters: IssueListFilters) => [...issueKeys.lists(), filters] as const,
  detail: (issueId: string) => [...issueKeys.all, 'detail', issueId] as const,
  comments: (issueId: string) => [...issueKeys.all, 'comments', issueId] as const,
  agents: ['issues', 'assignable-agents'] as const,
  projects: ['issues', 'projects'] as const,
  members: ['issues', 'members'] as const,
  /** Every issue change in flight, so a card shows "Saving…" whoever started the change. */
  update: ['issues', 'update'] as const,
};

function queryString(parameters: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

export const issuesApi = {
  list: async (filters: IssueListFilters) =>
    (await api.get<{ issues: Issue[] }>(`/api/issues${queryString({ assigneeAgentId: filters.assigneeAgentId, limit: filters.limit })}`)).issues,
  find: (issueId: string) => api.get<Issue>(`/api/issues/${encodeURIComponent(issueId)}`),
  create: (input: CreateIssueInput) => api.post<IssueChange>('/api/issues', input),
  update: (issueId: string, change: UpdateIssueInput) => api.patch<IssueChange>(`/api/issues/${encodeURIComponent(issueId)}`, change),
  comments: async (issueId: string) => (await api.get<{ comments: IssueComment[] }>(`/api/issues/${encodeURIComponent(issueId)}/comments`)).comments,
  comment: (issueId: string, body: string) => api.post<IssueComment & { tasks: TriggeredTask[] }>(`/api/issues/${encodeURIComponent(issueId)}/comments`, { body }),
  agents: async () => (await api.get<{ agents: AgentSummary[] }>('/api/agents')).agents,
  projects: async () => (await api.get<{ projects: ProjectSummary[] }>('/api/projects')).projects,
  members: async () => (await api.get<{ members: MemberSummary[] }>('/api/members')).members,
};

export function useIssues(filters: IssueListFilters) {
  // The previous page stays on screen while a larger one or another filter loads.
  return useQuery({ queryKey: issueKeys.list(filters), queryFn: () => issuesApi.list(filters), placeholderData: keepPreviousData });
}

export function useIssue(issueId: string) {
  return useQuery({ queryKey: issueKeys.detail(issueId), queryFn: () => issuesApi.find(issueId) });
}

export function useIssueComments(issueId: string) {
  return useQuery({ queryKey: issueKeys.comments(issueId), queryFn: () => issuesApi.comments(issueId) });
}

/** The workspace's active agents: the ones an issue can be assigned to or a comment can mention. */
export function useAssignableAgents() {
  return useQuery({ queryKey: issueKeys.agents, queryFn: issuesApi.agents, staleTime: 30_000 });
}

export function useProjects() {
  return useQuery({ queryKey: issueKeys.projects, queryFn: issuesApi.projects, staleTime: 60_000 });
}

/** People of the workspace, to name a comment's author. */
export function useMembers() {
  return useQuery({ queryKey: issueKeys.members, queryFn: issuesApi.members, staleTime: 60_000 });
}

export function useCreateIssue() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: issuesApi.create,
    onSuccess: () => queries.invalidateQueries({ queryKey: issueKeys.lists() }),
  });
}

/** Writes the change into every cached list and the detail at once; the caller puts them back on failure. */
function applyIssueChange(queries: QueryClient, issueId: string, change: UpdateIssueInput): () => void {
  const lists = queries.getQueriesData<Issue[]>({ queryKey: issueKeys.lists() });
  const detail = queries.getQueryData<Issue>(issueKeys.detail(issueId));
  queries.setQueriesData<Issue[]>({ queryKey: issueKeys.lists() }, (issues) => issues?.map((issue) => (issue.id === issueId ? { ...issue, ...change } : issue)));
  if (detail) queries.setQueryData<Issue>(issueKeys.detail(issueId), { ...detail, ...change });
  return () => {
    for (const [key, issues] of lists) queries.setQueryData(key, issues);
    if (detail) queries.setQueryData(issueKeys.detail(issueId), detail);
  };
}

/** PATCH one issue; the board moves the card at once (optimistic) and back if the gateway refuses. */
export interface IssueUpdateVariables {
  readonly issueId: string;
  readonly change: UpdateIssueInput;
}

export function useUpdateIssue() {
  const queries = useQueryClient();
  return useMutation({
    mutationKey: issueKeys.update,
    mutationFn: (variables: IssueUpdateVariables) => issuesApi.update(variables.issueId, variables.change),
    onMutate: async (variables) => {
      // A list read in flight would otherwise land after this and put the card back.
      await Promise.all([queries.cancelQueries({ queryKey: issueKeys.lists() }), queries.cancelQueries({ queryKey: issueKeys.detail(variables.issueId) })]);
      return { undo: applyIssueChange(queries, variables.issueId, variables.change) };
    },
    onError: (_error, _variables, context) => context?.undo(),
    onSettled: (_data, _error, variables) =>
      Promise.all([
        queries.invalidateQueries({ queryKey: issueKeys.lists() }),
        queries.invalidateQueries({ queryKey: issueKeys.detail(variables.issueId) }),
        // An assignment may have started a task.
        queries.invalidateQueries({ queryKey: taskKeys.ofIssue(variables.issueId) }),
      ]),
  });
}

/** Whether a change of this issue is in flight, from any component. */
export function useIssueSaving(issueId: string): boolean {
  const pending = useMutationState({
    filters: { mutationKey: issueKeys.update, status: 'pending' },
    select: (mutation) => (mutation.state.variables as IssueUpdateVariables | undefined)?.issueId,
  });
  return pending.includes(issueId);
}

export function useCreateComment(issueId: string) {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: (body: string) => issuesApi.comment(issueId, body),
    onSuccess: () =>
      Promise.all([
        queries.invalidateQueries({ queryKey: issueKeys.comments(issueId) }),
        // A mention starts a task.
        queries.invalidateQueries({ queryKey: taskKeys.ofIssue(issueId) }),
      ]),
  });
}
