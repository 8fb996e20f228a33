import { Injectable } from '@nestjs/common';

/** The daemon's task slots: how many it may still take, and which tasks run now. */
@Injectable()
export class SlotTracker {
  private readonly active = new Set<string>();
  /** Closed: no slot is offered, whatever is free (at boot, until the queue released the previous process's attempts). */
  private closed = false;
  private readonly openedListeners = new Set<() => void>();

  constructor(private readonly capacity: number) {}

  get freeSlots(): number {
    return this.closed ? 0 : Math.max(0, this.capacity - this.active.size);
  }

  /** Slots a task runs in, closed or not. */
  get busySlots(): number {
    return this.active.size;
  }

  /** DAEMON_MAX_SLOTS. */
  get totalSlots(): number {
    return this.capacity;
  }

  activeTaskIds(): string[] {
    return [...this.active];
  }

  take(taskId: string): void {
    this.active.add(taskId);
  }

  release(taskId: string): void {
    this.active.delete(taskId);
  }

  close(): void {
    this.closed = true;
  }

  /** Opens the slots and tells whoever waits for them (the claim loop claims at once). */
  open(): void {
    this.closed = false;
    for (const listener of this.openedListeners) listener();
  }

  /** Calls `listener` each time the slots open; returns the unsubscribe function. */
  onOpened(listener: () => void): () => void {
    this.openedListeners.add(listener);
    return () => this.openedListeners.delete(listener);
  }
}
