import type { TimelineEntry } from '@switchyard/contracts';
import type { YardSettings } from './yard.settings';

/** A refusal of the gateway, with its error code (`validation_failed`, `not_found`, ...). */
export class GatewayRequestError extends Error {
  override readonly name = 'GatewayRequestError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface TaskView {
  readonly taskId: string;
  readonly status: string;
  readonly agentId: string;
  readonly failureReason?: string | null;
}

export interface AgentView {
  readonly id: string;
  readonly name: string;
  readonly runtimeId: string;
}

export interface RuntimeView {
  readonly runtimeId: string;
  readonly identity: string;
  readonly version: string;
  readonly status: string;
}

export interface IssueView {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly status: string;
  readonly parentIssueId: string | null;
}

export interface CommentView {
  readonly id: string;
  readonly author: { readonly kind: string; readonly id: string };
  readonly body: string;
  readonly createdAt: string;
}

/** The REST calls `yard` makes (see docs/architecture/gateway.md). */
export class GatewayClient {
  constructor(private readonly settings: YardSettings) {}

  listRuntimes(): Promise<{ runtimes: RuntimeView[] }> {
    return this.call('GET', '/api/runtimes');
  }

  listAgents(): Promise<{ agents: AgentView[] }> {
    return this.call('GET', '/api/agents');
  }

  createAgent(input: { name: string; runtimeId: string; instructions?: string; model?: string; env?: Record<string, string> }): Promise<AgentView> {
    return this.call('POST', '/api/agents', input);
  }

  createTask(input: { agentId: string; prompt: string }): Promise<TaskView> {
    return this.call('POST', '/api/tasks', input);
  }

  task(taskId: string): Promise<TaskView> {
    return this.call('GET', `/api/tasks/${encodeURIComponent(taskId)}`);
  }

  cancelTask(taskId: string): Promise<TaskView> {
    return this.call('POST', `/api/tasks/${encodeURIComponent(taskId)}/cancel`, {});
  }

  issue(issueId: string): Promise<IssueView> {
    return this.call('GET', `/api/issues/${encodeURIComponent(issueId)}`);
  }

  comments(issueId: string): Promise<{ comments: CommentView[] }> {
    return this.call('GET', `/api/issues/${encodeURIComponent(issueId)}/comments`);
  }

  comment(issueId: string, body: string): Promise<CommentView> {
    return this.call('POST', `/api/issues/${encodeURIComponent(issueId)}/comments`, { body });
  }

  setIssueStatus(issueId: string, status: string): Promise<IssueView> {
    return this.call('PATCH', `/api/issues/${encodeURIComponent(issueId)}`, { status });
  }

  createIssue(input: { title: string; parentIssueId: string; description?: string }): Promise<IssueView> {
    return this.call('POST', '/api/issues', input);
  }

  /** The whole timeline, page by page. */
  async timeline(taskId: string): Promise<TimelineEntry[]> {
    const entries: TimelineEntry[] = [];
    let since = -1;
    for (;;) {
      const page = await this.call<{ messages: TimelineEntry[]; nextSince: number | null; hasMore: boolean }>('GET', `/api/tasks/${encodeURIComponent(taskId)}/messages?since=${since}&limit=1000`);
      entries.push(...page.messages);
      if (!page.hasMore || page.nextSince === null) return entries;
      since = page.nextSince;
    }
  }

  private async call<T>(method: string, route: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.settings.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${this.settings.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (!response.ok) {
      const error = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
      throw new GatewayRequestError(response.status, error?.code ?? `http_${response.status}`, error?.message ?? response.statusText);
    }
    return parsed as T;
  }
}
