import { isTransientFailureReason, type TaskFailureReason } from '@switchyard/contracts';
import type { StoredTaskMessage } from './timeline-audit';

export interface TaskRow {
  readonly task_id: string;
  readonly status: string;
  readonly failure_reason: string | null;
  readonly retry_of_task_id: string | null;
  readonly attempt: number;
  readonly max_attempts: number;
}

const TERMINAL = ['completed', 'failed', 'cancelled'];

/** What contradicts what happened; every list empty means the tasks ended truthfully. */
export interface TaskTruthReport {
  readonly notTerminal: string[];
  /** Completed, yet the stream lacks some of what the agent emitted. */
  readonly completedWithoutFullTimeline: string[];
  /** A task whose stored seqs are not 0..k without holes (an acknowledged message went missing upstream). */
  readonly timelineGaps: string[];
  /** Failed for a reason the scenario cannot explain. */
  readonly unexplainedFailures: string[];
  /** Failed transiently with attempts left, but no retry (or more than one). */
  readonly retriesMissing: string[];
}

/**
 * Judges the end state of every task against the stream: `events` is what the fixture agent emits
 * per run; `allowedFailureReasons` what the injected fault may truthfully cause (none: every task
 * must complete).
 */
export function judgeTasks(options: {
  readonly tasks: readonly TaskRow[];
  readonly messages: readonly StoredTaskMessage[];
  readonly events: number;
  readonly allowedFailureReasons: readonly TaskFailureReason[];
  /** Tasks the scenario cancelled: they must end `cancelled`. */
  readonly cancelled?: readonly string[];
}): TaskTruthReport {
  const byTask = new Map<string, StoredTaskMessage[]>();
  for (const message of options.messages) byTask.set(message.taskId, [...(byTask.get(message.taskId) ?? []), message]);
  const report: TaskTruthReport = { notTerminal: [], completedWithoutFullTimeline: [], timelineGaps: [], unexplainedFailures: [], retriesMissing: [] };
  for (const task of options.tasks) {
    const messages = byTask.get(task.task_id) ?? [];
    const seqs = [...new Set(messages.map((message) => message.seq))].sort((left, right) => left - right);
    if (seqs.some((seq, index) => seq !== index)) report.timelineGaps.push(`${task.task_id}: seqs ${compactRanges(seqs)}`);
    const texts = new Set(messages.map((message) => message.text));
    const emitted = Array.from({ length: options.events }, (_, index) => `steady event ${index} of ${options.events}`).filter((text) => texts.has(text)).length;
    const describe = `${task.task_id} (${task.status}${task.failure_reason ? ` ${task.failure_reason}` : ''}, attempt ${task.attempt}/${task.max_attempts}, ${emitted}/${options.events} agent events stored)`;
    if (!TERMINAL.includes(task.status)) report.notTerminal.push(describe);
    if (task.status === 'completed' && emitted !== options.events) report.completedWithoutFullTimeline.push(describe);
    if (task.status === 'failed') {
      const reason = task.failure_reason as TaskFailureReason;
      if (!options.allowedFailureReasons.includes(reason)) report.unexplainedFailures.push(describe);
      const retries = options.tasks.filter((candidate) => candidate.retry_of_task_id === task.task_id).length;
      const expected = isTransientFailureReason(reason) && task.attempt < task.max_attempts ? 1 : 0;
      if (retries !== expected) report.retriesMissing.push(`${describe}: ${retries} retries, expected ${expected}`);
    }
    const cancelledByScenario = options.cancelled?.includes(task.task_id) ?? false;
    if ((task.status === 'cancelled') !== cancelledByScenario && TERMINAL.includes(task.status)) report.unexplainedFailures.push(describe);
  }
  return report;
}

function compactRanges(values: readonly number[]): string {
  const ranges: string[] = [];
  for (let index = 0; index < values.length; ) {
    let end = index;
    while (end + 1 < values.length && values[end + 1] === values[end]! + 1) end += 1;
    ranges.push(end === index ? String(values[index]) : `${values[index]}-${values[end]}`);
    index = end + 1;
  }
  return ranges.join(',');
}
