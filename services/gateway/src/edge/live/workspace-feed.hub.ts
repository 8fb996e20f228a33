import type { DataSource } from 'typeorm';
import { EVENT_CATALOG, subjects, type EventOf, type TaskEventType } from '@switchyard/contracts';
import { decodeNotice, subscribeNotices, type MessagingConnection, type Notice, type NoticeSubscription } from '@switchyard/messaging';
import { workspaceOfTask } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import { WORKSPACE_NOTICE_FILTER, workspaceNoticeSchema } from '../../workspace/notices/workspace-notice';
import type { WorkspaceFeedFrame } from './live.frames';
import { taskStatusChangeOf } from './task-status.mapper';

const LIFECYCLE_EVENTS = [
  'task.enqueued',
  'task.deferred',
  'task.claimed',
  'task.started',
  'task.requeued',
  'task.completed',
  'task.failed',
  'task.expired',
  'task.cancel_requested',
  'task.cancelled',
  'task.timed_out',
] as const satisfies readonly TaskEventType[];
type LifecycleEvent = EventOf<(typeof LIFECYCLE_EVENTS)[number]>;
const REMEMBERED_TASKS = 10_000;

type Listener = (frame: WorkspaceFeedFrame) => void;
const NOTICE_SUBJECT_PREFIX = WORKSPACE_NOTICE_FILTER.slice(0, -1);

/**
 * Task status changes and workspace notices (issues, comments, chats) of every workspace, live
 * from NATS (one subscription per subject per gateway process), fanned out to the clients of each
 * workspace. Live only: a client that reconnects lists over REST what it missed.
 */
export class WorkspaceFeedHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly workspaceByTask = new Map<string, string>();
  private readonly subscriptions: NoticeSubscription[] = [];

  constructor(
    private readonly connection: MessagingConnection,
    private readonly dataSource: DataSource,
    private readonly logger: JsonLogger,
  ) {}

  start(): void {
    // Anyone on the bus can publish here: each message is decoded against its subject's contract
    // (the event's envelope schema, the notice schema), and one that is not JSON or not what the
    // subject promises is logged and skipped by the messaging layer. It never ends the feed.
    for (const type of LIFECYCLE_EVENTS) {
      const schema = EVENT_CATALOG[type].envelope;
      this.subscriptions.push(subscribeNotices(this.connection, { subject: subjects.eventTypeFilter(type), onNotice: (notice) => this.dispatch(decodeNotice(notice, schema)) }));
    }
    this.subscriptions.push(subscribeNotices(this.connection, { subject: WORKSPACE_NOTICE_FILTER, onNotice: (notice) => this.forwardNotice(notice) }));
  }

  stop(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
  }

  /** Returns the unsubscribe function. */
  listen(workspaceId: string, listener: Listener): () => void {
    const listeners = this.listeners.get(workspaceId) ?? new Set<Listener>();
    listeners.add(listener);
    this.listeners.set(workspaceId, listeners);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.listeners.delete(workspaceId);
    };
  }

  private async dispatch(event: LifecycleEvent): Promise<void> {
    const change = taskStatusChangeOf(event);
    if (!change || this.listeners.size === 0) return;
    const workspaceId = event.type === 'task.enqueued' ? event.payload.workspaceId : await this.workspaceOf(change.taskId);
    if (workspaceId === undefined) return;
    this.remember(change.taskId, workspaceId);
    for (const listener of this.listeners.get(workspaceId) ?? []) listener({ type: 'task', ...change });
  }

  private forwardNotice(notice: Notice): void {
    if (!notice.subject.startsWith(NOTICE_SUBJECT_PREFIX)) return;
    const listeners = this.listeners.get(notice.subject.slice(NOTICE_SUBJECT_PREFIX.length));
    if (!listeners) return;
    const workspaceNotice = decodeNotice(notice, workspaceNoticeSchema);
    for (const listener of listeners) listener({ type: 'workspace', ...workspaceNotice });
  }

  private async workspaceOf(taskId: string): Promise<string | undefined> {
    return this.workspaceByTask.get(taskId) ?? (await workspaceOfTask(this.dataSource, taskId));
  }

  private remember(taskId: string, workspaceId: string): void {
    this.workspaceByTask.delete(taskId);
    this.workspaceByTask.set(taskId, workspaceId);
    // Maps iterate in insertion order: the first key is the least recently seen.
    if (this.workspaceByTask.size > REMEMBERED_TASKS) this.workspaceByTask.delete(this.workspaceByTask.keys().next().value!);
  }
}
