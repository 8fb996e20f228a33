import { EMPTY_TIMELINE, withActivity, withEntry, type TimelineItem, type TimelineState } from './timeline.model';
import type { ActivityMessage, TimelineEntry } from './timeline.types';

// Rows as the gateway sends them: every field present, nulls where a kind has nothing.
function row(seq: number, fields: Partial<TimelineEntry> & Pick<TimelineEntry, 'type'>): TimelineEntry {
  return {
    id: `event-${seq}`,
    taskId: 'task-1',
    seq,
    attempt: 1,
    tool: null,
    callId: null,
    content: null,
    input: null,
    output: null,
    outputTruncated: false,
    toolStatus: null,
    errorCode: null,
    noticeCode: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    ...fields,
  };
}

const text = (seq: number, content: string, attempt = 1) => row(seq, { type: 'text', content, attempt });
const thinking = (seq: number, content: string) => row(seq, { type: 'thinking', content });
const toolUse = (seq: number, callId: string, input: unknown = { command: 'ls' }) => row(seq, { type: 'tool_use', tool: 'shell', callId, input });
const toolResult = (seq: number, callId: string, output = 'done', truncated = false) =>
  row(seq, { type: 'tool_result', callId, output, outputTruncated: truncated, toolStatus: 'ok' });

function given(...entries: TimelineEntry[]): TimelineState {
  return entries.reduce(withEntry, EMPTY_TIMELINE);
}

function kinds(state: TimelineState): string[] {
  return state.items.map((item) => item.kind);
}

// Text and thinking share one variant (`kind: 'text' | 'thinking'`), so Extract would find none.
type ItemOf<K extends TimelineItem['kind']> = TimelineItem & { readonly kind: K };

function only<K extends TimelineItem['kind']>(state: TimelineState, kind: K): Array<ItemOf<K>> {
  return state.items.filter((item): item is ItemOf<K> => item.kind === kind);
}

describe('timeline model', () => {
  describe('text and thinking', () => {
    it('merges adjacent text rows of one attempt into one item', () => {
      // Given two streamed text blocks
      const state = given(text(0, 'Hello, '), text(1, 'world'));
      // Then they read as one item holding both seqs
      expect(state.items).toEqual([{ kind: 'text', key: 'row-0', attempt: 1, seqs: [0, 1], content: 'Hello, world' }]);
    });

    it('does not merge text across a tool call', () => {
      // Given text, a tool call, then text again
      const state = given(text(0, 'Looking. '), toolUse(1, 'call-1'), text(2, 'Found it.'));
      // Then the two texts stay apart, around the call
      expect(kinds(state)).toEqual(['text', 'tool', 'text']);
      expect(only(state, 'text').map((item) => item.content)).toEqual(['Looking. ', 'Found it.']);
    });

    it('does not merge text across attempts', () => {
      // Given the end of attempt 1 and the start of attempt 2
      const state = given(text(0, 'first try', 1), text(1, 'second try', 2));
      // Then each attempt has its own item
      expect(only(state, 'text').map((item) => [item.attempt, item.content])).toEqual([
        [1, 'first try'],
        [2, 'second try'],
      ]);
    });

    it('keeps thinking apart from text, and merges adjacent thinking', () => {
      // Given thinking in two blocks, then text
      const state = given(thinking(0, 'Let me '), thinking(1, 'think.'), text(2, 'Answer.'));
      // Then thinking is one item and the text another
      expect(state.items).toEqual([
        { kind: 'thinking', key: 'row-0', attempt: 1, seqs: [0, 1], content: 'Let me think.' },
        { kind: 'text', key: 'row-2', attempt: 1, seqs: [2], content: 'Answer.' },
      ]);
    });
  });

  describe('tool calls', () => {
    it('pairs a result with its call by call id, even with another call between', () => {
      // Given two calls, answered in the other order
      const state = given(toolUse(0, 'call-a', { path: 'a' }), toolUse(1, 'call-b', { path: 'b' }), toolResult(2, 'call-b', 'B'), toolResult(3, 'call-a', 'A', true));
      // Then each call holds its own result, and no result stands alone
      const tools = only(state, 'tool');
      expect(tools).toHaveLength(2);
      expect(tools.map((tool) => [tool.callId, tool.input, tool.result?.output, tool.result?.truncated, tool.result?.seq])).toEqual([
        ['call-a', { path: 'a' }, 'A', true, 3],
        ['call-b', { path: 'b' }, 'B', false, 2],
      ]);
    });

    it('shows a result whose call it never saw on its own', () => {
      // Given a result for a call this timeline does not hold
      const state = given(text(0, 'resumed'), toolResult(1, 'call-unknown', 'orphan output'));
      // Then it is an item of its own, with no input
      const [orphan] = only(state, 'tool');
      expect(orphan).toMatchObject({ key: 'row-1', seq: 1, callId: 'call-unknown', input: null, result: { seq: 1, output: 'orphan output' } });
    });

    it('leaves a call without a result open until it comes', () => {
      // Given a call alone
      const state = given(toolUse(0, 'call-1'));
      // Then it waits for its result
      expect(only(state, 'tool')[0]?.result).toBeUndefined();
    });
  });

  describe('errors and notices', () => {
    it('keeps an error and a daemon notice as items of their own, with their codes', () => {
      // Given a notice and an error between texts
      const state = given(
        text(0, 'a'),
        row(1, { type: 'notice', noticeCode: 'repository_work', content: 'branch pushed' }),
        row(2, { type: 'error', errorCode: 'agent_error', content: 'boom' }),
        text(3, 'b'),
      );
      // Then neither is merged into text
      expect(kinds(state)).toEqual(['text', 'notice', 'error', 'text']);
      expect(state.items[1]).toMatchObject({ code: 'repository_work', content: 'branch pushed' });
      expect(state.items[2]).toMatchObject({ code: 'agent_error', content: 'boom' });
    });
  });

  describe('idempotence by seq', () => {
    it('ignores a row seen before', () => {
      // Given a timeline that holds seq 0 and 1
      const state = given(text(0, 'Hello, '), text(1, 'world'));
      // When seq 1 comes again (a reconnect, or REST and the socket both)
      const again = withEntry(state, text(1, 'world'));
      // Then nothing changes, not even the object
      expect(again).toBe(state);
      expect(again.items[0]).toMatchObject({ content: 'Hello, world' });
    });

    it('ignores a repeated activity, and a row that reuses an activity seq', () => {
      // Given a status activity at seq 0
      const state = withActivity(EMPTY_TIMELINE, 0, { type: 'status', state: 'running' });
      // When it comes again, and a row claims the same seq
      const again = withEntry(withActivity(state, 0, { type: 'status', state: 'running' }), text(0, 'dup'));
      // Then nothing changes
      expect(again).toBe(state);
    });
  });

  describe('activity', () => {
    const usage = (model: string, inputTokens: number, outputTokens: number): ActivityMessage => ({ type: 'usage', model, inputTokens, outputTokens });

    it('keeps the latest total per model', () => {
      // Given two reports for one model and one for another
      const state = [usage('model-a', 10, 1), usage('model-b', 5, 5), usage('model-a', 30, 7)].reduce(
        (current, message, index) => withActivity(current, index, message),
        EMPTY_TIMELINE,
      );
      // Then each model shows its latest report, not a sum
      const byModel = Object.fromEntries(state.usage.map((entry) => [entry.model, [entry.inputTokens, entry.outputTokens]]));
      expect(byModel).toEqual({ 'model-a': [30, 7], 'model-b': [5, 5] });
      // And usage is no timeline item
      expect(state.items).toEqual([]);
    });

    it('shows a status change as an item, with its progress', () => {
      // Given a status with progress, then one without text at all
      const state = withActivity(withActivity(EMPTY_TIMELINE, 3, { type: 'status', state: 'running', progress: 'step 2' }), 4, { type: 'status', state: '' });
      // Then only the first reads as an item
      expect(state.items).toEqual([{ kind: 'status', key: 'activity-3', seq: 3, text: 'running: step 2' }]);
    });

    it('covers activity seqs in lastSeq, so a reconnect resumes after them', () => {
      // Given rows up to seq 1, then a log activity at seq 2 (never a row or item)
      const state = withActivity(given(text(0, 'a'), text(1, 'b')), 2, { type: 'log', level: 'info', text: 'noise' });
      // Then the last seq is the activity's
      expect(state.lastSeq).toBe(2);
      expect(state.items).toHaveLength(1);
    });

    it('never moves lastSeq back', () => {
      // Given seq 5 seen, then an older seq arriving late
      const state = withEntry(withActivity(EMPTY_TIMELINE, 5, { type: 'log', level: 'info', text: 'x' }), text(3, 'late'));
      // Then the last seq stays 5
      expect(state.lastSeq).toBe(5);
    });
  });
});
