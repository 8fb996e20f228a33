import { createEvent } from '@switchyard/contracts';
import { taskStatusChangeOf } from './task-status.mapper';

const TASK = '0197a5c3-6f1e-7c2a-9b4d-2f1e3d4c5b6a';
const LATER = '2030-01-01T00:00:00.000Z';

describe('taskStatusChangeOf', () => {
  it('shows a claimed attempt waiting for its local directory as waiting_local_directory', () => {
    const awaited = createEvent({
      type: 'task.local_directory_awaited',
      payload: { taskId: TASK, attempt: 1, daemonId: 'd', localPath: '/home/ada/app', heldByTaskId: null, startBy: LATER },
    });
    expect(taskStatusChangeOf(awaited)).toEqual({
      taskId: TASK,
      event: 'task.local_directory_awaited',
      status: 'waiting_local_directory',
      attempt: 1,
      reason: null,
      occurredAt: awaited.occurredAt,
    });
  });

  it('treats a renewal before the start like a heartbeat: no status change', () => {
    const extended = createEvent({ type: 'task.start_deadline_extended', payload: { taskId: TASK, attempt: 1, daemonId: 'd', startBy: LATER } });
    expect(taskStatusChangeOf(extended)).toBeUndefined();
  });
});
