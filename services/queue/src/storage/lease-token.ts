import { createHash, timingSafeEqual } from 'node:crypto';
import { pooledRandomBytes } from './pooled-random';
import type { EntityManager } from 'typeorm';
import { openAtRest, sealAtRest } from './at-rest.cipher';

/** Minted per claimed attempt: only its SHA-256 stays with the attempt (`agent_task_queue.lease_token_hash`). */
export function mintLeaseToken(): string {
  return pooledRandomBytes(32).toString('base64url');
}

function hashOf(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** What `agent_task_queue.lease_token_hash` keeps of a lease token (the claim writes it with the task's row). */
export function hashLeaseToken(token: string): string {
  return hashOf(token).toString('hex');
}

/** Who holds a task's current attempt, as the claim recorded it. */
export interface AttemptLease {
  readonly attempt: number;
  readonly daemonId: string | null;
  readonly leaseTokenHash: string | null;
}

export async function readAttemptLease(manager: EntityManager, taskId: string): Promise<AttemptLease | undefined> {
  const [row] = await manager.query<Array<{ attempt: number; daemon_id: string | null; lease_token_hash: string | null }>>(
    'select attempt, daemon_id, lease_token_hash from agent_task_queue where task_id = $1',
    [taskId],
  );
  return row && { attempt: row.attempt, daemonId: row.daemon_id, leaseTokenHash: row.lease_token_hash };
}

/** The report is the holder's: same attempt, same daemon, and the token hashes to the stored hash (compared in constant time). */
export function holdsLease(lease: AttemptLease, report: { readonly attempt: number; readonly daemonId: string; readonly leaseToken: string }): boolean {
  if (lease.leaseTokenHash === null || lease.attempt !== report.attempt || lease.daemonId !== report.daemonId) return false;
  const stored = Buffer.from(lease.leaseTokenHash, 'hex');
  const presented = hashOf(report.leaseToken);
  return stored.length === presented.length && timingSafeEqual(stored, presented);
}

/**
 * A lease token as a stored claim reply keeps it: random, it cannot be derived again like the task
 * token, yet a replayed claim must give the daemon the tokens of the attempts it won.
 */
export function sealLeaseToken(secret: string, token: string): string {
  return sealAtRest(secret, 'lease token', token);
}

export function openLeaseToken(secret: string, sealed: string): string {
  return openAtRest(secret, 'lease token', sealed);
}
