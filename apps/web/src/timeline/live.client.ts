import type { ServerFrame } from './timeline.types';

type Listener = (frame: ServerFrame) => void;

const RECONNECT_DELAYS_MS = [250, 500, 1_000, 2_000, 5_000];

/**
 * One WebSocket to the gateway's `/api/live` for the whole page, authenticated by the session
 * cookie, acting in the chosen workspace. It reconnects by itself and then subscribes every task
 * again after the last seq each subscriber holds (`resumeAfter`), and the workspace feed: a
 * reconnect loses nothing and doubles nothing.
 */
export class LiveClient {
  private socket: WebSocket | undefined;
  private readonly taskListeners = new Map<string, { listener: Listener; resumeAfter: () => number }>();
  private readonly workspaceListeners = new Set<Listener>();
  private readonly reconnectListeners = new Set<() => void>();
  private attempts = 0;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** How many times the socket was opened: a page (or a test) can tell a reconnect happened. */
  connections = 0;

  constructor(private readonly workspaceId: string) {
    this.open();
  }

  /** Every frame of the task after `resumeAfter()`, now and after each reconnect; returns the undo. */
  subscribeTask(taskId: string, listener: Listener, resumeAfter: () => number): () => void {
    this.taskListeners.set(taskId, { listener, resumeAfter });
    this.send({ type: 'subscribe', taskId, afterSeq: resumeAfter() });
    return () => {
      if (this.taskListeners.get(taskId)?.listener !== listener) return;
      this.taskListeners.delete(taskId);
      this.send({ type: 'unsubscribe', taskId });
    };
  }

  /** Status changes of the workspace's tasks and notices of its issues, comments and chats. */
  subscribeWorkspace(listener: Listener): () => void {
    this.workspaceListeners.add(listener);
    if (this.workspaceListeners.size === 1) this.send({ type: 'subscribe_workspace' });
    return () => this.workspaceListeners.delete(listener);
  }

  /**
   * Called each time the socket is back after a drop: task feeds resume by themselves, but the
   * workspace feed replays nothing, so what a page listed may have changed meanwhile.
   */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  /** Drops the connection as a network would; it comes back by itself (used to prove resumption). */
  dropConnection(): void {
    this.socket?.close();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.socket?.close();
  }

  private open(): void {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(`${scheme}://${location.host}/api/live?workspace=${encodeURIComponent(this.workspaceId)}`);
    this.socket = socket;
    socket.addEventListener('message', (event) => this.receive(event.data));
    socket.addEventListener('close', () => {
      if (this.socket !== socket || this.closed) return;
      const delay = RECONNECT_DELAYS_MS[Math.min(this.attempts, RECONNECT_DELAYS_MS.length - 1)]!;
      this.attempts += 1;
      this.timer = setTimeout(() => this.open(), delay);
    });
  }

  private receive(data: unknown): void {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(String(data)) as ServerFrame;
    } catch {
      return;
    }
    if (frame.type === 'ready') {
      this.attempts = 0;
      this.connections += 1;
      if (this.connections > 1) this.reconnectListeners.forEach((listener) => listener());
      for (const [taskId, { resumeAfter }] of this.taskListeners) this.send({ type: 'subscribe', taskId, afterSeq: resumeAfter() });
      if (this.workspaceListeners.size > 0) this.send({ type: 'subscribe_workspace' });
      return;
    }
    if (frame.type === 'task' || frame.type === 'workspace') this.workspaceListeners.forEach((listener) => listener(frame));
    const taskId = 'taskId' in frame ? frame.taskId : undefined;
    if (taskId !== undefined) this.taskListeners.get(taskId)?.listener(frame);
  }

  private send(frame: unknown): void {
    // Before `ready` nothing is sent: the subscriptions go out once the socket is ready.
    if (this.socket?.readyState === WebSocket.OPEN && this.connections > 0) this.socket.send(JSON.stringify(frame));
  }
}
