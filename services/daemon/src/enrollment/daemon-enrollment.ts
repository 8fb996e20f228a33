import { hostname } from 'node:os';
import { z } from 'zod';
import { createDaemonKeys } from '@switchyard/messaging';
import { writeDaemonIdentity, type DaemonIdentity } from './daemon-identity.store';

const enrolledSchema = z.object({ daemonId: z.string().min(1), workspaceId: z.string().min(1), jwt: z.string().min(1) });

export class DaemonEnrollmentError extends Error {
  override readonly name = 'DaemonEnrollmentError';
  constructor(
    readonly code: 'enrollment_refused' | 'enrollment_failed',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Enrolls this machine's daemon: its NATS user key and its curve key are made here, only their
 * public halves go to the gateway with the one-time token, and what comes back (its id and user
 * JWT) is kept with the seeds, 0600, in its home.
 */
export async function enrollDaemon(options: { readonly gatewayUrl: string; readonly token: string; readonly home: string; readonly name?: string }): Promise<DaemonIdentity> {
  const keys = createDaemonKeys();
  const url = new URL('/api/daemons/enroll', options.gatewayUrl);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: options.token, name: options.name ?? hostname(), userPublicKey: keys.userPublicKey, curvePublicKey: keys.curvePublicKey }),
    });
  } catch (error) {
    throw new DaemonEnrollmentError('enrollment_failed', `the gateway at ${url.origin} did not answer: ${(error as Error).message}`);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (response.status === 401 || response.status === 429) {
    throw new DaemonEnrollmentError('enrollment_refused', `the gateway refused the enrollment token (HTTP ${response.status}): ${JSON.stringify(body)}`);
  }
  const enrolled = enrolledSchema.safeParse(body);
  if (!response.ok || !enrolled.success) throw new DaemonEnrollmentError('enrollment_failed', `enrollment failed (HTTP ${response.status}): ${JSON.stringify(body)}`);
  return writeDaemonIdentity(options.home, {
    daemonId: enrolled.data.daemonId,
    workspaceId: enrolled.data.workspaceId,
    gatewayUrl: url.origin,
    creds: keys.credsFor(enrolled.data.jwt),
    curveSeed: keys.curveSeed,
  });
}
