import { AGENT_MESSAGE_TYPES, NOTICE_CODE_MAX_CHARS, NOTICE_TEXT_MAX_CHARS, agentMessageSchema, isTimelineMessage, type AgentMessage } from './unified-message.schema';

const SAMPLES: { [TType in AgentMessage['type']]: Extract<AgentMessage, { type: TType }> } = {
  text: { type: 'text', text: 'I will run the tests.' },
  thinking: { type: 'thinking', text: 'The failure is in the fixture loader.' },
  'tool-use': { type: 'tool-use', tool: 'Bash', callId: 'call-1', input: { command: 'npm test', args: ['--ci', 1, true, null] } },
  'tool-result': { type: 'tool-result', callId: 'call-1', tool: 'Bash', output: 'ok', status: 'ok', outputTruncated: true },
  status: { type: 'status', sessionId: 'session-1', state: 'running', progress: 'Reading files' },
  error: { type: 'error', code: 'rate_limited', message: 'Slow down' },
  log: { type: 'log', level: 'warn', text: 'stderr: deprecated flag' },
  usage: { type: 'usage', provider: 'openai', model: 'gpt-5', inputTokens: 10, outputTokens: 5, cacheWriteTokens: 0 },
  notice: { type: 'notice', code: 'repository_work', text: 'api: branch switchyard/task-1, 2 commits, 3 files changed.' },
};

describe('unified agent messages', () => {
  it.each(AGENT_MESSAGE_TYPES)('%s survives a JSON round trip unchanged', (type) => {
    const message = SAMPLES[type];
    expect(agentMessageSchema.parse(JSON.parse(JSON.stringify(message)))).toEqual(message);
  });

  it('accepts the minimal form of each variant', () => {
    const minimal: AgentMessage[] = [
      { type: 'tool-result', callId: 'c', output: '', status: 'error' },
      { type: 'status', state: 'started' },
      { type: 'usage', model: 'm', inputTokens: 0, outputTokens: 0 },
      { type: 'tool-use', tool: 't', callId: 'c', input: null },
    ];
    for (const message of minimal) expect(agentMessageSchema.parse(message)).toEqual(message);
  });

  it('carries vendor extras only in the metadata bag keyed by adapter id', () => {
    const withMetadata = { ...SAMPLES.text, metadata: { 'claude-stream-json': { stopReason: 'end_turn' } } };
    expect(agentMessageSchema.parse(withMetadata)).toEqual(withMetadata);
    expect(agentMessageSchema.safeParse({ ...SAMPLES.text, stopReason: 'end_turn' }).success).toBe(false);
    expect(agentMessageSchema.safeParse({ ...SAMPLES.text, metadata: { stopReason: 'end_turn' } }).success).toBe(false);
  });

  it.each([
    ['an unknown type', { type: 'delta', text: 'x' }],
    ['a tool input that is not JSON', { ...SAMPLES['tool-use'], input: { at: new Date(0), run: () => 1 } }],
    ['a missing tool input', { type: 'tool-use', tool: 'Bash', callId: 'call-1' }],
    ['a bad tool status', { ...SAMPLES['tool-result'], status: 'partial' }],
    ['negative token counts', { ...SAMPLES.usage, inputTokens: -1 }],
    ['fractional token counts', { ...SAMPLES.usage, outputTokens: 1.5 }],
    ['an unknown log level', { ...SAMPLES.log, level: 'trace' }],
    ['an empty call id', { ...SAMPLES['tool-result'], callId: '' }],
    ['a notice code that is not snake_case', { ...SAMPLES.notice, code: 'Repository-Work' }],
    ['a notice code with a trailing underscore', { ...SAMPLES.notice, code: 'repository_' }],
    ['a notice code too long', { ...SAMPLES.notice, code: 'a'.repeat(NOTICE_CODE_MAX_CHARS + 1) }],
    ['an empty notice text', { ...SAMPLES.notice, text: '' }],
    ['a notice text too long', { ...SAMPLES.notice, text: 'x'.repeat(NOTICE_TEXT_MAX_CHARS + 1) }],
    ['a notice with a metadata bag (it is the daemon’s, not an adapter’s)', { ...SAMPLES.notice, metadata: { claude: {} } }],
  ])('rejects %s', (_label, input) => {
    expect(agentMessageSchema.safeParse(input).success).toBe(false);
  });

  it('marks which messages become timeline rows', () => {
    expect(AGENT_MESSAGE_TYPES.filter((type) => isTimelineMessage(SAMPLES[type]))).toEqual([
      'text',
      'thinking',
      'tool-use',
      'tool-result',
      'error',
      'notice',
    ]);
  });
});
