import { createEvent, type AgentMessage, type TaskMessageEvent } from '@switchyard/contracts';
import { createMessageSanitizer } from '@switchyard/redaction';
import { mapTimelineBatch } from './timeline-row.mapper';

const TASK = 'task-1';
const sanitize = createMessageSanitizer({ maxToolOutputChars: 200 });
let clock = Date.parse('2030-01-01T00:00:00.000Z');

function event(seq: number, message: AgentMessage, options: { taskId?: string; attempt?: number } = {}): TaskMessageEvent {
  clock += 1_000;
  return createEvent({
    type: 'task.message',
    payload: { taskId: options.taskId ?? TASK, seq, attempt: options.attempt ?? 1, message },
    occurredAt: new Date(clock),
  });
}

const empty = { tool: null, callId: null, content: null, inputJson: null, output: null, outputTruncated: false, toolStatus: null, errorCode: null, noticeCode: null };

describe('timeline row mapper', () => {
  it('maps each timeline message to its columns, with the envelope id and time', () => {
    // Given one event of each timeline type
    const events = [
      event(0, { type: 'text', text: 'Reading the repo.' }),
      event(1, { type: 'thinking', text: 'The loader is wrong.' }),
      event(2, { type: 'tool-use', tool: 'Bash', callId: 'c1', input: { command: 'npm test' } }),
      event(3, { type: 'tool-result', callId: 'c1', tool: 'Bash', output: 'ok', status: 'ok' }),
      event(4, { type: 'error', code: 'rate_limited', message: 'Slow down' }),
      event(5, { type: 'tool-use', tool: 'Noop', callId: 'c2', input: null }),
      event(6, { type: 'notice', code: 'repository_work', text: 'api: branch switchyard/task-1, 3 files changed.' }),
    ];
    // When mapped
    const { messages, usage } = mapTimelineBatch(events, sanitize);
    // Then every row carries exactly its type's columns
    const origin = (index: number) => ({ id: events[index]!.eventId, taskId: TASK, seq: index, attempt: 1, createdAt: events[index]!.occurredAt });
    expect(messages.map(({ entryJson: _entryJson, ...columns }) => columns)).toEqual([
      { ...origin(0), ...empty, type: 'text', content: 'Reading the repo.' },
      { ...origin(1), ...empty, type: 'thinking', content: 'The loader is wrong.' },
      { ...origin(2), ...empty, type: 'tool_use', tool: 'Bash', callId: 'c1', inputJson: '{"command":"npm test"}' },
      { ...origin(3), ...empty, type: 'tool_result', tool: 'Bash', callId: 'c1', output: 'ok', toolStatus: 'ok' },
      { ...origin(4), ...empty, type: 'error', errorCode: 'rate_limited', content: 'Slow down' },
      { ...origin(5), ...empty, type: 'tool_use', tool: 'Noop', callId: 'c2', inputJson: 'null' },
      { ...origin(6), ...empty, type: 'notice', noticeCode: 'repository_work', content: 'api: branch switchyard/task-1, 3 files changed.' },
    ]);
    expect(usage).toEqual([]);
  });

  it('stores each row as the API returns it: the entry keys in order, input keys as jsonb orders them', () => {
    // Given a tool call whose input keys are not in jsonb order, and a text
    const events = [
      event(0, { type: 'tool-use', tool: 'Bash', callId: 'c1', input: { command: 'ls', b: [{ zz: 1, a: null }], '10': true, '2': 'x' } }),
      event(1, { type: 'text', text: 'Done "here".' }),
    ];
    // When mapped
    const { messages } = mapTimelineBatch(events, sanitize);
    // Then the text is what replay has always sent for these columns
    const createdAt = (index: number): string => new Date(events[index]!.occurredAt).toISOString();
    expect(messages.map((row) => row.entryJson)).toEqual([
      `{"id":"${events[0]!.eventId}","taskId":"${TASK}","seq":0,"attempt":1,"type":"tool_use","tool":"Bash","callId":"c1","content":null,` +
        `"input":{"2":"x","10":true,"b":[{"a":null,"zz":1}],"command":"ls"},"output":null,"outputTruncated":false,"toolStatus":null,"errorCode":null,"noticeCode":null,"createdAt":"${createdAt(0)}"}`,
      `{"id":"${events[1]!.eventId}","taskId":"${TASK}","seq":1,"attempt":1,"type":"text","tool":null,"callId":null,"content":"Done \\"here\\".",` +
        `"input":null,"output":null,"outputTruncated":false,"toolStatus":null,"errorCode":null,"noticeCode":null,"createdAt":"${createdAt(1)}"}`,
    ]);
  });

  it('writes an unknown tool as `"tool":null` right after the type, where the writer puts the name it learns', () => {
    const { messages } = mapTimelineBatch([event(3, { type: 'tool-result', callId: 'elsewhere', output: '', status: 'ok' })], sanitize);
    expect(messages[0]).toMatchObject({ tool: null });
    expect(messages[0]!.entryJson).toContain('"type":"tool_result","tool":null,"callId":"elsewhere"');
  });

  it('makes no rows of status and log messages', () => {
    const { messages, usage, toolCalls } = mapTimelineBatch([event(0, { type: 'status', state: 'running', sessionId: 's' }), event(1, { type: 'log', level: 'info', text: 'x' })], sanitize);
    expect({ messages, usage, toolCalls }).toEqual({ messages: [], usage: [], toolCalls: [] });
  });

  it('names the tool of a result from its call in the same batch, whatever their order', () => {
    // Given a result without a tool name that arrived before its call
    const events = [event(7, { type: 'tool-result', callId: 'c9', output: 'done', status: 'error' }), event(6, { type: 'tool-use', tool: 'Edit', callId: 'c9', input: {} })];
    // When mapped
    const { messages, toolCalls } = mapTimelineBatch(events, sanitize);
    // Then the result carries the call's tool, and the call is offered for earlier results
    expect(messages.find((row) => row.type === 'tool_result')).toMatchObject({ tool: 'Edit', toolStatus: 'error' });
    expect(toolCalls).toEqual([{ taskId: TASK, callId: 'c9', tool: 'Edit' }]);
  });

  it('leaves the tool null when the call is not in the batch (the writer looks it up)', () => {
    const { messages } = mapTimelineBatch([event(3, { type: 'tool-result', callId: 'elsewhere', output: '', status: 'ok' })], sanitize);
    expect(messages[0]).toMatchObject({ type: 'tool_result', tool: null, callId: 'elsewhere' });
  });

  it('keeps the first event of a repeated (task, seq), as the table does', () => {
    const first = event(0, { type: 'text', text: 'first' });
    const recreated = event(0, { type: 'text', text: 'recreated envelope' });
    const { messages } = mapTimelineBatch([first, first, recreated, event(0, { type: 'text', text: 'other task' }, { taskId: 'task-2' })], sanitize);
    expect(messages.map((row) => [row.taskId, row.seq, row.id, row.content])).toEqual([
      [TASK, 0, first.eventId, 'first'],
      ['task-2', 0, expect.any(String), 'other task'],
    ]);
  });

  it('keeps the latest usage report per (task, attempt, provider, model)', () => {
    // Given usage reports in any order, one without a provider
    const events = [
      event(9, { type: 'usage', provider: 'anthropic', model: 'opus', inputTokens: 900, outputTokens: 90, cacheReadTokens: 9 }),
      event(4, { type: 'usage', provider: 'anthropic', model: 'opus', inputTokens: 400, outputTokens: 40 }),
      event(5, { type: 'usage', model: 'local', inputTokens: 1, outputTokens: 2 }),
      event(2, { type: 'usage', provider: 'anthropic', model: 'opus', inputTokens: 1, outputTokens: 1 }, { attempt: 2 }),
    ];
    // When mapped
    const { usage, messages } = mapTimelineBatch(events, sanitize);
    // Then the highest seq wins per key, and a missing provider is ''
    expect(messages).toEqual([]);
    expect(usage).toEqual([
      { taskId: TASK, attempt: 1, provider: 'anthropic', model: 'opus', inputTokens: 900, outputTokens: 90, cacheReadTokens: 9, cacheWriteTokens: 0, reportedSeq: 9 },
      { taskId: TASK, attempt: 1, provider: '', model: 'local', inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, reportedSeq: 5 },
      { taskId: TASK, attempt: 2, provider: 'anthropic', model: 'opus', inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, reportedSeq: 2 },
    ]);
  });

  it('sanitizes again: secrets, NUL bytes and oversized output never reach a row', () => {
    const secret = 'ghp_' + 'A1b2C3d4E5'.repeat(4);
    const { messages } = mapTimelineBatch(
      [
        event(0, { type: 'text', text: `token ${secret}\u0000` }),
        event(1, { type: 'tool-use', tool: 'Bash', callId: 'c', input: { env: { GITHUB_TOKEN: 'anything-at-all' } } }),
        event(2, { type: 'tool-result', callId: 'c', output: 'z'.repeat(1_000), status: 'ok' }),
        event(3, { type: 'notice', code: 'repository_work', text: `pushed with ${secret}\u0000` }),
      ],
      sanitize,
    );
    expect(messages[0]!.content).toBe('token [REDACTED:github_token]');
    expect(messages[1]!.inputJson).toBe('{"env":{"GITHUB_TOKEN":"[REDACTED:token]"}}');
    expect(messages[2]).toMatchObject({ outputTruncated: true, tool: 'Bash' });
    expect(messages[2]!.output!.length).toBeLessThanOrEqual(200);
    expect(messages[3]).toMatchObject({ type: 'notice', noticeCode: 'repository_work', content: 'pushed with [REDACTED:github_token]' });
  });
});
