import { agentMessageSchema, type AgentMessage } from '@switchyard/contracts';
import { MAX_JSON_DEPTH, guardAgentMessage } from './agent-message.guard';

/** What a translator that casts native fields unchecked may hand over. */
const unchecked = (value: unknown): AgentMessage => value as AgentMessage;
const nested = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;

describe('agent message guard', () => {
  it.each<AgentMessage>([
    { type: 'text', text: 'hello' },
    { type: 'thinking', text: '' },
    { type: 'tool-use', tool: 'bash', callId: 'call-1', input: { command: 'ls', flags: ['-l', 2, true, null] }, metadata: { claude: { id: 'x', extra: undefined } } },
    { type: 'tool-result', callId: 'call-1', output: 'listing', status: 'ok' },
    { type: 'status', sessionId: 'session-1', state: 'started' },
    { type: 'error', code: 'cli_error', message: 'boom' },
    { type: 'log', level: 'warn', text: 'careful' },
    { type: 'usage', model: 'model-a', inputTokens: 1, outputTokens: 2 },
  ])('given a message inside the contract (%j), then it passes unchanged', (message) => {
    expect(guardAgentMessage(message)).toEqual({ kind: 'valid', message });
  });

  it.each([
    [{ type: 'text', text: 42 }, 'a text message', 'text: '],
    [{ type: 'tool-use', tool: 'bash', callId: 7, input: 'x' }, 'a tool-use message', 'callId: '],
    [{ type: 'tool-use', tool: { not: 'a string' }, callId: 'call-1', input: 'x' }, 'a tool-use message', 'tool: '],
    [{ type: 'tool-result', callId: 'call-1', output: 9, status: 'ok' }, 'a tool-result message', 'output: '],
    [{ type: 'status', sessionId: 99, state: 'started' }, 'a status message', 'sessionId: '],
    [{ type: 'usage', model: 'model-a', inputTokens: 'many', outputTokens: 2 }, 'a usage message', 'inputTokens: '],
    [{ type: 'error', code: 13, message: 14 }, 'an error message', 'code: '],
    [{ type: 'text', text: 'hello', vendorField: 1 }, 'a text message', 'vendorField'],
    [{ type: 'text', text: 'hello', metadata: { claude: { big: 1n } } }, 'a text message', 'metadata holds a bigint'],
    [{ type: 'mystery' }, 'an unknown-type ("mystery") message', 'type: '],
    [{ type: 'notice', code: 'repository_work', text: 'looks like the daemon' }, 'a notice message', 'type: a notice is the daemon’s, not an adapter’s'],
    [{ text: 'no type' }, 'an untyped message', 'type: '],
    [42, 'an untyped message', 'not an object'],
  ])('given %j, when guarded, then it is replaced by an error naming %s and the field', (candidate, what, field) => {
    const verdict = guardAgentMessage(unchecked(candidate));

    expect(verdict).toMatchObject({ kind: 'invalid', replacement: { type: 'error', code: 'agent_message_invalid' } });
    if (verdict.kind !== 'invalid') return;
    expect(verdict.replacement.message).toContain(`dropped ${what} outside the contract: `);
    expect(verdict.replacement.message).toContain(field);
    expect(agentMessageSchema.safeParse(verdict.replacement).success).toBe(true);
  });

  it('given a huge invalid message, then the error stays short and does not dump it', () => {
    const verdict = guardAgentMessage(unchecked({ type: 'x'.repeat(100_000), text: 'y'.repeat(100_000) }));
    expect(verdict.kind === 'invalid' && verdict.replacement.message.length).toBeLessThanOrEqual(301);
  });

  it.each([
    ['nested 10 000 levels', nested(10_000), `input is nested deeper than ${MAX_JSON_DEPTH} levels`],
    ['just over the limit', nested(MAX_JSON_DEPTH + 1), `input is nested deeper than ${MAX_JSON_DEPTH} levels`],
    ['missing', undefined, 'input is missing'],
    ['NaN', { value: Number.NaN }, 'input holds NaN'],
    ['a date', { at: new Date(0) }, 'input holds an object that is not plain JSON'],
  ])('given a tool-use whose input is %s, then it keeps its call with a placeholder input', (_name, input, problem) => {
    const verdict = guardAgentMessage(unchecked({ type: 'tool-use', tool: 'bash', callId: 'call-deep', input }));

    expect(verdict).toMatchObject({ kind: 'repaired', message: { type: 'tool-use', tool: 'bash', callId: 'call-deep', input: { unreadable: expect.stringContaining(problem) } } });
    expect(agentMessageSchema.safeParse(verdict.kind === 'repaired' && verdict.message).success).toBe(true);
  });

  it('given a tool input at the depth limit, then it passes', () => {
    expect(guardAgentMessage(unchecked({ type: 'tool-use', tool: 'bash', callId: 'call-1', input: nested(MAX_JSON_DEPTH) })).kind).toBe('valid');
  });

  it('given a cycle in the metadata, then it is invalid and nothing overflows', () => {
    const bag: Record<string, unknown> = {};
    bag['self'] = bag;
    expect(guardAgentMessage(unchecked({ type: 'text', text: 'hi', metadata: { claude: bag } }))).toMatchObject({ kind: 'invalid', problem: expect.stringContaining('metadata is nested deeper') });
  });

  it('given a tool-use with a deep input and a wrong-typed call id, then it is invalid, not repaired', () => {
    expect(guardAgentMessage(unchecked({ type: 'tool-use', tool: 'bash', callId: 7, input: nested(10_000) }))).toMatchObject({ kind: 'invalid', problem: expect.stringContaining('callId') });
  });

  it('given a message whose field throws when read, then the guard does not throw', () => {
    const overflow = (): never => {
      throw new RangeError('Maximum call stack size exceeded');
    };
    const hostileText = Object.defineProperty({ type: 'text' }, 'text', { enumerable: true, get: overflow });
    const hostileType = Object.defineProperty({ text: 'hi' }, 'type', { enumerable: true, get: overflow });

    expect(guardAgentMessage(unchecked(hostileText))).toMatchObject({ kind: 'invalid', problem: expect.stringContaining('Maximum call stack size exceeded') });
    expect(guardAgentMessage(unchecked(hostileType))).toMatchObject({ kind: 'invalid', replacement: { message: expect.stringContaining('dropped an unreadable message') } });
  });
});
