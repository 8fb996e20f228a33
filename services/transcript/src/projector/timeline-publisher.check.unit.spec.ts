import { attemptKey } from '@switchyard/persistence';
import { checkPublisher } from './timeline-publisher.check';

describe('checkPublisher', () => {
  const payload = { taskId: 'task-1', attempt: 2 };
  const holders = new Map([[attemptKey(payload), 'daemon-holder']]);

  it('passes a message its attempt’s holder published', () => {
    expect(checkPublisher({ subject: 'task.message.task-1.daemon-holder', payload, holders })).toEqual({ verdict: 'held' });
  });

  it('refuses one another daemon published, naming both', () => {
    const check = checkPublisher({ subject: 'task.message.task-1.daemon-other', payload, holders });
    expect(check.verdict).toBe('forged');
    expect(check.verdict !== 'held' && check.error.message).toBe('published by daemon-other, but attempt 2 of task task-1 is held by daemon-holder');
  });

  it('holds back one whose attempt nobody holds yet', () => {
    const check = checkPublisher({ subject: 'task.message.task-1.daemon-holder', payload: { taskId: 'task-1', attempt: 3 }, holders });
    expect(check.verdict).toBe('unheld');
    expect(check.verdict !== 'held' && check.error.message).toBe('attempt 3 of task task-1 has no holder yet; published by daemon-holder');
  });
});
