import { AGENT_MESSAGE_TYPES, NOTICE_TEXT_MAX_CHARS, agentMessageSchema, type AgentMessage } from '@switchyard/contracts';
import { createMessageSanitizer, sanitizeAgentMessage } from './sanitize-agent-message';
import { SECRET_SAMPLES } from './secret-samples';

const GITHUB = SECRET_SAMPLES.find((entry) => entry.kind === 'github_token')!.secret;
const ANTHROPIC = SECRET_SAMPLES.find((entry) => entry.kind === 'anthropic_api_key')!.secret;
const ENV_SECRET = 'agent-env-value-42';
const DIRTY = `a\u0000b\uD800c`;
const DIRTY_CLEANED = 'ab\uFFFDc';

/** One message of every type, each string holding a secret, a NUL byte and a lone surrogate. */
const DIRTY_MESSAGES: { [TType in AgentMessage['type']]: Extract<AgentMessage, { type: TType }> } = {
  text: { type: 'text', text: `pushing with ${GITHUB} ${DIRTY}`, metadata: { claude: { raw: `key ${ANTHROPIC}` } } },
  thinking: { type: 'thinking', text: `the env holds ${ENV_SECRET}` },
  'tool-use': {
    type: 'tool-use',
    tool: `Bash${DIRTY}`,
    callId: 'call-1',
    input: { command: `curl -H "Authorization: Bearer ${GITHUB}"`, env: { API_TOKEN: 'plain-looking-value', nested: [DIRTY, 3, true, null] }, password: 'hunter2hunter2', max_tokens: 100 },
  },
  'tool-result': { type: 'tool-result', callId: 'call-1', tool: 'Bash', output: `${ENV_SECRET}\n${DIRTY}\n${'x'.repeat(2_000)}`, status: 'ok' },
  status: { type: 'status', state: 'running', sessionId: 'session-1', progress: `token=${GITHUB}` },
  error: { type: 'error', code: 'auth_failed', message: `401 for ${ANTHROPIC}${DIRTY}` },
  log: { type: 'log', level: 'warn', text: `stderr: ${DIRTY} postgres://u:S3cretPass@db/x` },
  usage: { type: 'usage', provider: 'anthropic', model: `claude${DIRTY}`, inputTokens: 10, outputTokens: 5 },
  notice: { type: 'notice', code: 'repository_work', text: `pushed to https://x-access-token:${GITHUB}@example.test/api.git ${ENV_SECRET} ${DIRTY}` },
};

describe('sanitizeAgentMessage', () => {
  const sanitize = createMessageSanitizer({ exactSecrets: [ENV_SECRET], maxToolOutputChars: 1_000 });

  it.each(AGENT_MESSAGE_TYPES)('leaves a %s message valid, clean and free of secrets', (type) => {
    // Given a message full of secrets, NUL bytes and lone surrogates
    const message = DIRTY_MESSAGES[type];
    // When sanitized
    const sanitized = sanitize(message);
    // Then it still matches the contract, and no secret or unstorable character is left anywhere
    expect(agentMessageSchema.parse(sanitized)).toEqual(sanitized);
    const serialized = JSON.stringify(sanitized);
    for (const secret of [GITHUB, ANTHROPIC, ENV_SECRET, 'S3cretPass', 'hunter2hunter2']) expect(serialized).not.toContain(secret);
    expect(serialized).not.toMatch(/\\u0000|\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])/i);
    // And sanitizing again changes nothing
    expect(sanitize(sanitized)).toEqual(sanitized);
  });

  it('redacts inside the tool input at any depth and keeps every key', () => {
    const sanitized = sanitize(DIRTY_MESSAGES['tool-use']);
    expect(sanitized).toEqual({
      type: 'tool-use',
      tool: `Bash${DIRTY_CLEANED}`,
      callId: 'call-1',
      input: {
        command: 'curl -H "Authorization: Bearer [REDACTED:github_token]"',
        env: { API_TOKEN: '[REDACTED:token]', nested: [DIRTY_CLEANED, 3, true, null] },
        password: '[REDACTED:password]',
        max_tokens: 100,
      },
    });
  });

  it('keeps a long tool output as a preview and marks it truncated', () => {
    const sanitized = sanitize(DIRTY_MESSAGES['tool-result']);
    expect(sanitized).toMatchObject({ type: 'tool-result', outputTruncated: true });
    const output = (sanitized as Extract<AgentMessage, { type: 'tool-result' }>).output;
    expect(output.length).toBeLessThanOrEqual(1_000);
    expect(output.startsWith(`[REDACTED:known_secret]\n${DIRTY_CLEANED}\n`)).toBe(true);
  });

  it('keeps outputTruncated from the adapter and leaves a short output whole', () => {
    const message: AgentMessage = { type: 'tool-result', callId: 'c', output: 'partial', status: 'error', outputTruncated: true };
    expect(sanitizeAgentMessage(message)).toEqual(message);
    const plain: AgentMessage = { type: 'tool-result', callId: 'c', output: 'done', status: 'ok' };
    expect(sanitizeAgentMessage(plain)).toEqual(plain);
  });

  it('keeps required names non-empty when they were nothing but NUL bytes', () => {
    const sanitized = sanitizeAgentMessage({ type: 'tool-use', tool: '\u0000', callId: '\u0000\u0000', input: { '\u0000key': 'v' } });
    expect(agentMessageSchema.safeParse(sanitized).success).toBe(true);
    expect(sanitized).toEqual({ type: 'tool-use', tool: '\uFFFD', callId: '\uFFFD', input: { key: 'v' } });
  });

  it('cuts a long notice to a preview after redacting it, and keeps its code', () => {
    // Given a notice of many short secrets, each redaction marker longer than the secret it replaces
    const secret = 'abcd1234';
    const notice: AgentMessage = { type: 'notice', code: 'repository_work', text: `${secret} `.repeat(NOTICE_TEXT_MAX_CHARS / 9) };
    // When sanitized with that secret known
    const sanitized = createMessageSanitizer({ exactSecrets: [secret] })(notice);
    // Then the text is redacted, within the cap and still valid; the code is the same
    expect(agentMessageSchema.parse(sanitized)).toEqual(sanitized);
    const { code, text } = sanitized as Extract<AgentMessage, { type: 'notice' }>;
    expect(code).toBe('repository_work');
    expect(text.length).toBeLessThanOrEqual(NOTICE_TEXT_MAX_CHARS);
    expect(text).not.toContain(secret);
    expect(text).toContain('characters truncated');
  });

  it('keeps a notice made only of NUL bytes non-empty', () => {
    expect(sanitizeAgentMessage({ type: 'notice', code: 'resume_skipped', text: '\u0000' })).toEqual({ type: 'notice', code: 'resume_skipped', text: '\uFFFD' });
  });

  it('leaves enum fields, numbers and an ordinary message untouched', () => {
    const ordinary: AgentMessage[] = [
      { type: 'text', text: 'All 42 tests pass.' },
      { type: 'log', level: 'error', text: 'npm ERR! code ELIFECYCLE' },
      { type: 'usage', model: 'gpt-5', inputTokens: 1, outputTokens: 2, cacheReadTokens: 3 },
      { type: 'tool-use', tool: 'Read', callId: 'toolu_01', input: { file_path: '/repo/src/index.ts', limit: 200 } },
      { type: 'notice', code: 'repository_work', text: 'api: branch switchyard/task-1 from 1a2b3c4 to 5d6e7f8, 3 files changed (+10 -2).' },
    ];
    for (const message of ordinary) expect(sanitizeAgentMessage(message)).toEqual(message);
  });
});
