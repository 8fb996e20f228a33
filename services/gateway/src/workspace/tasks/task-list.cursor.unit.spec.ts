import { ApiError } from '../common/api-error';
import { decodeTaskCursor, encodeTaskCursor } from './task-list.cursor';

describe('task list cursor', () => {
  it('round-trips a position at microsecond precision', () => {
    const position = { enqueuedAt: '2026-11-30T10:15:30.123456Z', taskId: '019a-task' };
    expect(decodeTaskCursor(encodeTaskCursor(position))).toEqual(position);
  });

  it.each(['garbage', Buffer.from('{"a":1}').toString('base64url'), Buffer.from('["not a date","x"]').toString('base64url')])('refuses %s with validation_failed', (cursor) => {
    expect(() => decodeTaskCursor(cursor)).toThrow(expect.objectContaining({ code: 'validation_failed', status: 400 }) as ApiError);
  });
});
