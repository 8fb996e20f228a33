import type { DataSource } from 'typeorm';
import { subjects, type TaskMessageEvent } from '@switchyard/contracts';
import { attemptKey, readAttemptHolders } from '@switchyard/persistence';

/**
 * Whether a streamed `task.message` of one feed's task comes from the daemon holding its attempt:
 * the subject's last token (NATS permissions make it the sender) against the queue's holder.
 * Holders are remembered per attempt for the feed (they never change); an attempt with no holder
 * yet is asked again.
 */
export class AttemptHolderCheck {
  private readonly holders = new Map<number, string>();

  constructor(private readonly options: { readonly taskId: string; readonly dataSource: DataSource }) {}

  async isFromHolder(subject: string, event: TaskMessageEvent): Promise<boolean> {
    const { taskId, attempt } = event.payload;
    // The subject names the feed's task; a payload naming another one is nobody's message here.
    if (taskId !== this.options.taskId) return false;
    let publisher: string;
    try {
      publisher = subjects.publisherOf(subject);
    } catch {
      return false;
    }
    return (await this.holderOf(attempt)) === publisher;
  }

  private async holderOf(attempt: number): Promise<string | undefined> {
    const remembered = this.holders.get(attempt);
    if (remembered !== undefined) return remembered;
    const pair = { taskId: this.options.taskId, attempt };
    const holder = (await readAttemptHolders(this.options.dataSource, [pair])).get(attemptKey(pair));
    if (holder !== undefined) this.holders.set(attempt, holder);
    return holder;
  }
}
