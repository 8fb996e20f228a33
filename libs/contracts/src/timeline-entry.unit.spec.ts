import { createEvent } from './create-event';
import type { TaskMessageEvent } from './task-message-event.schema';
import { timelineEntryOf, timelineEntrySchema } from './timeline-entry.schema';
import type { AgentMessage } from './unified-message.schema';

const taskMessage = (seq: number, message: AgentMessage): TaskMessageEvent => createEvent({ type: 'task.message', payload: { taskId: 'task-1', seq, attempt: 1, message } });

describe('timeline entries of task messages', () => {
  it('given text, thinking, a tool call, its result and an error, gives one valid entry each', () => {
    const events = [
      taskMessage(0, { type: 'text', text: 'hello' }),
      taskMessage(1, { type: 'thinking', text: 'hmm' }),
      taskMessage(2, { type: 'tool-use', tool: 'Bash', callId: 'c1', input: { command: 'ls' } }),
      taskMessage(3, { type: 'tool-result', callId: 'c1', output: 'a.txt', status: 'ok', outputTruncated: true }),
      taskMessage(4, { type: 'error', code: 'claude_error', message: 'boom' }),
    ];

    const entries = events.map(timelineEntryOf);

    expect(entries.map((entry) => entry?.type)).toEqual(['text', 'thinking', 'tool_use', 'tool_result', 'error']);
    expect(entries[2]).toMatchObject({ tool: 'Bash', callId: 'c1', input: { command: 'ls' }, content: null });
    // The result names no tool: left for whoever knows the call to fill in.
    expect(entries[3]).toMatchObject({ tool: null, callId: 'c1', output: 'a.txt', outputTruncated: true, toolStatus: 'ok' });
    expect(entries[4]).toMatchObject({ content: 'boom', errorCode: 'claude_error', noticeCode: null });
    for (const [index, entry] of entries.entries()) {
      expect(entry).toMatchObject({ id: events[index]!.eventId, taskId: 'task-1', seq: index, attempt: 1, createdAt: events[index]!.occurredAt });
      expect(timelineEntrySchema.safeParse(entry).success).toBe(true);
    }
  });

  it('given a daemon notice, gives a notice entry: its code in noticeCode, its sentence in content', () => {
    const event = taskMessage(7, { type: 'notice', code: 'repository_work', text: 'api: branch switchyard/task-1, 3 files changed.' });

    const entry = timelineEntryOf(event);

    expect(entry).toEqual({
      id: event.eventId,
      taskId: 'task-1',
      seq: 7,
      attempt: 1,
      type: 'notice',
      tool: null,
      callId: null,
      content: 'api: branch switchyard/task-1, 3 files changed.',
      input: null,
      output: null,
      outputTruncated: false,
      toolStatus: null,
      errorCode: null,
      noticeCode: 'repository_work',
      createdAt: event.occurredAt,
    });
    expect(timelineEntrySchema.parse(entry)).toEqual(entry);
  });

  it('gives no entry for status, log and usage messages', () => {
    expect(timelineEntryOf(taskMessage(0, { type: 'status', state: 'started', sessionId: 's' }))).toBeUndefined();
    expect(timelineEntryOf(taskMessage(1, { type: 'log', level: 'warn', text: 'x' }))).toBeUndefined();
    expect(timelineEntryOf(taskMessage(2, { type: 'usage', model: 'm', inputTokens: 1, outputTokens: 2 }))).toBeUndefined();
  });
});
