import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * What the stack's own daemon needs to enroll itself on first start: a one-time token the stack
 * asks its gateway for with its API token. Once enrolled, the daemon's identity is kept under
 * `<home>/identity` and it needs nothing more.
 */
export async function localDaemonEnrollment(options: { readonly home: string; readonly gatewayUrl: string; readonly apiToken: string }): Promise<NodeJS.ProcessEnv> {
  if (existsSync(path.join(options.home, 'identity', 'identity.json'))) return {};
  const response = await fetch(new URL('/api/daemon-enrollments', options.gatewayUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${options.apiToken}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const body = (await response.json().catch(() => undefined)) as { token?: unknown } | undefined;
  if (response.status !== 201 || typeof body?.token !== 'string') {
    throw new Error(`the gateway did not give the local daemon an enrollment token (HTTP ${response.status}): ${JSON.stringify(body)}`);
  }
  return { DAEMON_ENROLLMENT_TOKEN: body.token, DAEMON_GATEWAY_URL: options.gatewayUrl };
}
