// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read loosely; the gateway's own tests prove their schemas
export type LooseJson = any;

export interface GatewayAnswer<Body = LooseJson> {
  readonly status: number;
  readonly body: Body;
}

export type GatewayApi = (method: string, route: string, body?: unknown) => Promise<GatewayAnswer>;

/** The gateway's REST API with the owner's token, for what the suite sets up and checks behind the page. */
export function gatewayApi(baseUrl: string, token: string): GatewayApi {
  return async (method, route, body) => {
    const response = await fetch(`${baseUrl}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const answer: GatewayAnswer<unknown> = { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
    return answer as GatewayAnswer;
  };
}

/** Polls until the probe answers; the deadline only keeps a broken run from hanging the suite. */
export async function waitUntil<T>(probe: () => Promise<T | undefined>, description: string, timeoutMs = 150_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
