// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely; the schemas are proven by the gateway's own tests
export type LooseJson = any;

export interface GatewayResponse {
  readonly status: number;
  readonly body: LooseJson;
}

/** A REST call to the gateway under test; `token` overrides the caller's own (a task token, say). */
export type GatewayCall = (method: string, route: string, options?: { readonly body?: unknown; readonly token?: string }) => Promise<GatewayResponse>;

/** Calls the gateway at `baseUrl()` (known only once the system is up) with `token` as the bearer. */
export function gatewayCaller(baseUrl: () => string, token: string): GatewayCall {
  return async (method, route, options = {}): Promise<GatewayResponse> => {
    const response = await fetch(`${baseUrl()}${route}`, {
      method,
      headers: { authorization: `Bearer ${options.token ?? token}`, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- the body is LooseJson on purpose (see above)
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
}

/** Polls until the probe answers; the deadline only keeps a broken run from hanging the suite. */
export async function until<T>(probe: () => Promise<T | undefined>, description: string, timeoutMs = 150_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The task's REST view once it has ended (completed, failed or cancelled). */
export function finishedTask(call: GatewayCall, taskId: string): Promise<LooseJson> {
  return until(async () => {
    const task = (await call('GET', `/api/tasks/${taskId}`)).body as { status?: string } | undefined;
    return ['completed', 'failed', 'cancelled'].includes(task?.status ?? '') ? task : undefined;
  }, `task ${taskId} ends`);
}
