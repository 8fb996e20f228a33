import { SlotTracker } from './slot-tracker';

describe('slot tracker', () => {
  it('given closed slots, when they open, then free slots appear and every listener is told once', () => {
    const slots = new SlotTracker(3);
    slots.take('task-1');
    slots.close();
    const opened: string[] = [];
    slots.onOpened(() => opened.push('claim loop'));
    const stop = slots.onOpened(() => opened.push('removed'));
    stop();

    expect(slots.freeSlots).toBe(0);
    slots.open();

    expect(slots.freeSlots).toBe(2);
    expect(opened).toEqual(['claim loop']);
    expect(slots.activeTaskIds()).toEqual(['task-1']);
  });

  it('counts busy slots whether or not the slots are open, against the total', () => {
    const slots = new SlotTracker(3);
    slots.take('task-1');
    slots.take('task-2');
    slots.close();

    expect({ busy: slots.busySlots, total: slots.totalSlots }).toEqual({ busy: 2, total: 3 });
    slots.release('task-1');
    expect({ busy: slots.busySlots, total: slots.totalSlots }).toEqual({ busy: 1, total: 3 });
  });
});
