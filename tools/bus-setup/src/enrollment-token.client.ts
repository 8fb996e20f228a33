import { BusSetupError } from './bus-setup.error';

export interface EnrollmentTokenRequest {
  readonly gatewayUrl: string;
  /** An API token of the workspace the daemon joins. */
  readonly apiToken: string;
  readonly timeoutMs?: number;
}

interface GatewayAnswer {
  readonly token?: unknown;
  readonly error?: { readonly code?: unknown; readonly message?: unknown };
}

/** A one-time daemon enrollment token (`sye_…`) from the gateway: `POST /api/daemon-enrollments`. */
export async function requestEnrollmentToken(request: EnrollmentTokenRequest): Promise<string> {
  const url = new URL('/api/daemon-enrollments', request.gatewayUrl);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${request.apiToken}`, 'content-type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(request.timeoutMs ?? 10_000),
    });
  } catch (error) {
    throw new BusSetupError('gateway_unreachable', `the gateway at ${url.origin} did not answer: ${(error as Error).message}`, { cause: error });
  }
  const answer = (await response.json().catch(() => ({}))) as GatewayAnswer;
  if (response.status === 201 && typeof answer.token === 'string') return answer.token;
  const reason = typeof answer.error?.code === 'string' ? `${answer.error.code}: ${String(answer.error.message)}` : 'no error body';
  throw new BusSetupError('gateway_refused', `the gateway gave no enrollment token (HTTP ${response.status}, ${reason})`);
}
