import type { EntityManager } from 'typeorm';
import { commandFailure, type CommandFailure } from '@switchyard/contracts';
import { holdsLease, readAttemptLease } from '../storage/lease-token';

/** The reports that act on a claimed attempt and must prove its lease. */
export type LeasedReportName = 'task.start' | 'task.renew' | 'task.await_local_directory' | 'task.complete' | 'task.fail';

interface LeasedReport {
  readonly taskId: string;
  readonly attempt: number;
  readonly daemonId: string;
  readonly leaseToken: string;
}

/**
 * Thrown inside the command's transaction, so the refusal rolls everything back: no event, no
 * state change, no stored reply (the holder may still use the request id).
 */
export class LeaseRefusedError extends Error {
  constructor(readonly reply: CommandFailure) {
    super(reply.error.message);
    this.name = 'LeaseRefusedError';
  }
}

/**
 * A report is its sender's to make only while the sender holds the attempt (`agent_task_queue`:
 * same attempt, same daemon) and presents the token the claim gave it: the sender id alone is not
 * enough, since a second process under the same id (or one that outlived its lease) must not end
 * an attempt it never claimed. A task that does not exist is left to the decider (`not_found`).
 * Returns the report without its token, which goes no further than this check.
 */
export async function withLeaseChecked<TReport extends LeasedReport>(
  manager: EntityManager,
  name: LeasedReportName,
  report: TReport,
): Promise<Omit<TReport, 'leaseToken'>> {
  const { leaseToken, ...rest } = report;
  const lease = await readAttemptLease(manager, report.taskId);
  if (lease && !holdsLease(lease, { attempt: report.attempt, daemonId: report.daemonId, leaseToken })) {
    throw new LeaseRefusedError(
      commandFailure('sender_mismatch', `${name} from daemon ${report.daemonId} does not hold the lease of attempt ${report.attempt} of task ${report.taskId}`),
    );
  }
  return rest;
}
