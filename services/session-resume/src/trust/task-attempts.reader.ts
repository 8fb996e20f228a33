import { attemptKey, findQueuedTaskById, readAttemptHolders } from '@switchyard/persistence';
import type { DataSource } from 'typeorm';
import type { TaskAttempts } from '../domain/task-attempts';

/**
 * The task as the queue's record has it, with the holders of the attempts asked for: the current
 * one, one by number (ignored past the current), or all so far. The queue owns those tables; this
 * goes through its readers. One snapshot for both reads, so a claim landing in between cannot pair
 * one attempt's state with another's holder.
 */
export async function readTaskAttempts(dataSource: DataSource, options: { readonly taskId: string; readonly attempts: 'current' | 'all' | number }): Promise<TaskAttempts | undefined> {
  const { taskId } = options;
  return dataSource.transaction('REPEATABLE READ', async (manager) => {
    const task = await findQueuedTaskById(manager, taskId);
    if (task === undefined) return undefined;
    const numbers = attemptNumbers(options.attempts, task.attempt);
    const read = await readAttemptHolders(
      manager,
      numbers.map((attempt) => ({ taskId, attempt })),
    );
    const holders = new Map<number, string>();
    for (const attempt of numbers) {
      const holder = read.get(attemptKey({ taskId, attempt }));
      if (holder !== undefined) holders.set(attempt, holder);
    }
    return { taskId, runtimeId: task.runtimeId, status: task.status, attempt: task.attempt, holders };
  });
}

function attemptNumbers(wanted: 'current' | 'all' | number, current: number): number[] {
  if (wanted === 'all') return Array.from({ length: current }, (_, index) => index + 1);
  const attempt = wanted === 'current' ? current : wanted;
  return attempt >= 1 && attempt <= current ? [attempt] : [];
}
