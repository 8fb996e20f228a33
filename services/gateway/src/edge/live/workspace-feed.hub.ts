import type { DataSource } from 'typeorm';
import { parseEvent, subjects, type TaskEventType } from '@switchyard/contracts';
import { subscribeNotices, type MessagingConnection, type NoticeSubscription } from '@switchyard/messaging';
import { workspaceOfTask } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import { WORKSPACE_NOTICE_FILTER, workspaceNoticeSchema } from '../../workspace/notices/workspace-notice';
import type { WorkspaceFeedFrame } from './live.frames';
import { taskStatusChangeOf } from './task-status.mapper';

const LIFECYCLE_EVENTS: readonly TaskEventType[] = [
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
];
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
    // A message that is not JSON, or not what its subject promises, is logged by the messaging
    // layer and skipped: one poison message must not end the feed (or the gateway).
    for (const type of LIFECYCLE_EVENTS) {
      this.subscriptions.push(subscribeNotices(this.connection, { subject: subjects.eventTypeFilter(type), onNotice: (message) => this.dispatch(JSON.parse(message.text)) }));
    }
    this.subscriptions.push(subscribeNotices(this.connection, { subject: WORKSPACE_NOTICE_FILTER, onNotice: (message) => this.forwardNotice(message.subject, JSON.parse(message.text)) }));
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

  private async dispatch(data: unknown): Promise<void> {
    const parsed = parseEvent(data);
    if (!parsed.ok) return;
    const change = taskStatusChangeOf(parsed.event);
    if (!change || this.listeners.size === 0) return;
    const workspaceId = parsed.event.type === 'task.enqueued' ? parsed.event.payload.workspaceId : await this.workspaceOf(change.taskId);
    if (workspaceId === undefined) return;
    this.remember(change.taskId, workspaceId);
    for (const listener of this.listeners.get(workspaceId) ?? []) listener({ type: 'task', ...change });
  }

  private forwardNotice(logicalSubject: string, data: unknown): void {
    if (!logicalSubject.startsWith(NOTICE_SUBJECT_PREFIX)) return;
    const listeners = this.listeners.get(logicalSubject.slice(NOTICE_SUBJECT_PREFIX.length));
    if (!listeners) return;
    const notice = workspaceNoticeSchema.parse(data);
    for (const listener of listeners) listener({ type: 'workspace', ...notice });
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
