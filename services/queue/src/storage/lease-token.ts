import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from 'typeorm';

/** Minted per claimed attempt: only its SHA-256 stays with the attempt (`agent_task_queue.lease_token_hash`). */
export function mintLeaseToken(): string {
  return randomBytes(32).toString('base64url');
}

function hashOf(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

export async function recordLeaseToken(manager: EntityManager, options: { readonly taskId: string; readonly token: string }): Promise<void> {
  await manager.query('update agent_task_queue set lease_token_hash = $2 where task_id = $1', [options.taskId, hashOf(options.token).toString('hex')]);
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

const SEALED_PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Its own key, derived from the queue's secret, so a sealed lease token is no task token's input. */
function sealingKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('switchyard lease token at rest').digest();
}

/**
 * A lease token as a stored claim reply keeps it (AES-256-GCM): random, it cannot be derived again
 * like the task token, yet a replayed claim must give the daemon the tokens of the attempts it won.
 * Reading it back takes the queue's secret, as deriving a task token does, so the table alone gives
 * nothing away.
 */
export function sealLeaseToken(secret: string, token: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(secret), iv);
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

export function openLeaseToken(secret: string, sealed: string): string {
  if (!sealed.startsWith(SEALED_PREFIX)) throw new Error('not a sealed lease token');
  const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(secret), bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
