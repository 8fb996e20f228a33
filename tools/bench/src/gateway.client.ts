import type { TaskState } from '@switchyard/contracts';

/** The parts of the gateway's task answer a bench reads. */
export interface TaskView {
  readonly taskId: string;
  readonly status: TaskState;
  readonly failureReason: string | null;
}

export interface TimelinePageView {
  readonly messages: ReadonlyArray<{ readonly seq: number }>;
  readonly nextSince: number | null;
  readonly hasMore: boolean;
}

export interface GatewayClient {
  readonly url: string;
  readonly token: string;
  call<T>(method: string, route: string, body?: unknown): Promise<T>;
  waitForRuntime(runtimeId: string, timeoutMs: number): Promise<void>;
  createAgent(options: { readonly name: string; readonly runtimeId: string; readonly env?: Record<string, string>; readonly maxConcurrentTasks?: number }): Promise<string>;
  createTask(options: { readonly agentId: string; readonly prompt: string }): Promise<TaskView>;
  /** Polls `GET /api/tasks/:id` until the task is in one of `states`. */
  waitForTask(options: { readonly taskId: string; readonly states: readonly TaskState[]; readonly timeoutMs: number; readonly pollIntervalMs?: number }): Promise<TaskView>;
}

/** The REST API as a client sees it (`docs/architecture/gateway.md`), with an API token. */
export function createGatewayClient(options: { readonly url: string; readonly token: string }): GatewayClient {
  const call = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${options.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${options.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${route}: HTTP ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  return {
    url: options.url,
    token: options.token,
    call,
    async waitForRuntime(runtimeId, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const { runtimes } = await call<{ runtimes: Array<{ runtimeId: string; status: string }> }>('GET', '/api/runtimes');
        if (runtimes.some((runtime) => runtime.runtimeId === runtimeId && runtime.status === 'online')) return;
        if (Date.now() > deadline) throw new Error(`runtime ${runtimeId} never came online`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async createAgent(agent) {
      return (await call<{ id: string }>('POST', '/api/agents', agent)).id;
    },
    createTask(task) {
      return call<TaskView>('POST', '/api/tasks', task);
    },
    async waitForTask(wait) {
      const deadline = Date.now() + wait.timeoutMs;
      for (;;) {
        const task = await call<TaskView>('GET', `/api/tasks/${wait.taskId}`);
        if (wait.states.includes(task.status)) return task;
        if (Date.now() > deadline) throw new Error(`task ${wait.taskId} is ${task.status}, not ${wait.states.join('/')}, after ${wait.timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, wait.pollIntervalMs ?? 20));
      }
    },
  };
}
