import { subjects } from '@switchyard/contracts';
import { subscribeNotices, type MessagingConnection, type NoticeSubscription } from '@switchyard/messaging';
import type { JsonLogger } from '@switchyard/service-kit';

/** How a run hears that its task was cancelled: until the returned function is called. */
export interface CancelNotices {
  onCancel(taskId: string, cancel: () => Promise<void>): () => void;
}

/**
 * The daemon's one subscription for what the queue tells it (`notify.<daemonId>.>`, core NATS):
 * a nudge goes to the claim loop, a cancel to the run of that task. One subject family per daemon,
 * so its NATS identity may subscribe to its own notices only. A notice of a kind this build does
 * not know is logged and dropped: the queue may be newer.
 */
export class DaemonNoticesRouter implements CancelNotices {
  private readonly cancels = new Map<string, () => Promise<void>>();
  private subscription: NoticeSubscription | undefined;

  constructor(
    private readonly options: {
      readonly connection: MessagingConnection;
      readonly daemonId: string;
      readonly logger: JsonLogger;
      /** A runtime of this daemon has work waiting. */
      readonly onWorkAvailable: (runtimeId: string) => void;
    },
  ) {}

  start(): void {
    this.subscription ??= subscribeNotices(this.options.connection, {
      subject: subjects.daemonNotices(this.options.daemonId),
      onNotice: (notice) => this.dispatch(notice.subject),
    });
  }

  stop(): void {
    this.subscription?.unsubscribe();
    this.cancels.clear();
  }

  onCancel(taskId: string, cancel: () => Promise<void>): () => void {
    this.cancels.set(taskId, cancel);
    return () => {
      if (this.cancels.get(taskId) === cancel) this.cancels.delete(taskId);
    };
  }

  private async dispatch(subject: string): Promise<void> {
    const notice = subjects.parseDaemonNotice(subject);
    if (!notice || notice.daemonId !== this.options.daemonId) {
      this.options.logger.warn({ event: 'daemon_notice_unknown', subject }, 'notice of an unknown kind dropped');
      return;
    }
    if (notice.kind === 'work_available') {
      this.options.onWorkAvailable(notice.runtimeId);
      return;
    }
    // A cancel of a task this daemon no longer runs (it just ended) needs nothing.
    await this.cancels.get(notice.taskId)?.();
  }
}
