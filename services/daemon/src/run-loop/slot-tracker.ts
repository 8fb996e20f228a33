import { Injectable } from '@nestjs/common';

/** The daemon's task slots: how many it may still take, and which tasks run now. */
@Injectable()
export class SlotTracker {
  private readonly active = new Set<string>();

  constructor(private readonly capacity: number) {}

  get freeSlots(): number {
    return Math.max(0, this.capacity - this.active.size);
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
}
