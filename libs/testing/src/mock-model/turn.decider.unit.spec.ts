import { chatCompletionsRequest, claudeCodeRequest, codexRequest, CODEX_EXEC_COMMAND_TOOL, geminiRequest, geminiRouterRequest } from './cli-request.samples';
import { normalizeConversation } from './conversation.normalizer';
import type { ModelApi, NormalizedConversation, TurnDecision } from './conversation.types';
import { decideTurn, findLatestHumanPromptIndex, isInjectedContext, splitIntoDeltas } from './turn.decider';

const conversation = (api: ModelApi, body: unknown): NormalizedConversation => normalizeConversation({ api, body, model: 'gemini-2.5-pro', stream: true });
const toolCall = (decision: TurnDecision): Extract<TurnDecision, { kind: 'tool-call' }> => {
  if (decision.kind !== 'tool-call') throw new Error(`expected a tool call, got ${decision.kind}`);
  return decision;
};
const text = (decision: TurnDecision): string => {
  if (decision.kind !== 'text') throw new Error(`expected text, got ${decision.kind}`);
  return decision.text;
};

describe('decideTurn', () => {
  describe('given a shell tool on offer and no tool result after the prompt', () => {
    it('calls Claude Code\'s Bash with a command string and nothing else', () => {
      const decision = toolCall(decideTurn(conversation('anthropic-messages', claudeCodeRequest({ prompt: 'hello' }))));
      expect(decision.tool.name).toBe('Bash');
      expect(decision.arguments).toEqual({ command: 'echo mock-model-tool-call' });
    });

    it('calls Codex\'s shell with an argv array', () => {
      const decision = toolCall(decideTurn(conversation('openai-responses', codexRequest({ prompt: '[[scenario:tool-command ls -la]]' }))));
      expect(decision.arguments).toEqual({ command: ['bash', '-lc', 'ls -la'] });
    });

    it('calls Codex\'s exec_command with a cmd string', () => {
      const decision = toolCall(decideTurn(conversation('openai-responses', codexRequest({ prompt: 'go', shellTool: CODEX_EXEC_COMMAND_TOOL }))));
      expect(decision.arguments).toEqual({ cmd: 'echo mock-model-tool-call' });
    });

    it('fills the other required parameters from the schema (Qwen\'s is_background)', () => {
      const decision = toolCall(decideTurn(conversation('openai-chat', chatCompletionsRequest({ prompt: 'go' }))));
      expect(decision.arguments).toEqual({ command: 'echo mock-model-tool-call', is_background: false });
    });

    it('writes the file the tool-write-file marker names, content with spaces and quotes kept', () => {
      const decision = toolCall(decideTurn(conversation('gemini', geminiRequest({ prompt: "please [[scenario:tool-write-file out/a.txt it's done]]" }))));
      expect(decision.tool.name).toBe('run_shell_command');
      expect(decision.arguments).toEqual({ command: `printf '%s' 'it'\\''s done' > 'out/a.txt'` });
    });
  });

  describe('given a tool result after the latest prompt', () => {
    it.each<[ModelApi, unknown]>([
      ['anthropic-messages', claudeCodeRequest({ prompt: 'go', toolOutput: 'hi from tool' })],
      ['openai-responses', codexRequest({ prompt: 'go', toolOutput: 'hi from tool' })],
      ['openai-chat', chatCompletionsRequest({ prompt: 'go', toolOutput: 'hi from tool' })],
      ['gemini', geminiRequest({ prompt: 'go', toolOutput: 'hi from tool' })],
    ])('%s: answers with the final text quoting the output', (api, body) => {
      expect(text(decideTurn(conversation(api, body)))).toBe('Mock model final answer. Tool output: hi from tool');
    });
  });

  describe('given markers and side calls', () => {
    it('answers with text when the text marker is present, though a shell tool is offered', () => {
      expect(text(decideTurn(conversation('anthropic-messages', claudeCodeRequest({ prompt: '[[scenario:text]] hi' }))))).toBe('Mock model reply.');
    });

    it('answers with text when no shell tool is offered', () => {
      expect(text(decideTurn(conversation('openai-chat', { model: 'm', messages: [{ role: 'user', content: 'title this' }] })))).toBe('Mock model reply.');
    });

    it('fails with the status the error marker names', () => {
      expect(decideTurn(conversation('openai-chat', chatCompletionsRequest({ prompt: '[[scenario:error 429]]' })))).toMatchObject({ kind: 'error', status: 429 });
    });

    it('streams slowly for about the time the slow marker names', () => {
      const decision = decideTurn(conversation('anthropic-messages', claudeCodeRequest({ prompt: '[[scenario:slow 2000]]' })));
      if (decision.kind !== 'text') throw new Error('expected text');
      expect(decision.deltas.length * decision.deltaIntervalMilliseconds).toBeCloseTo(2000);
      expect(decision.deltas.join('')).toBe(decision.text);
    });

    it('returns schema-valid JSON for Gemini CLI\'s router, whatever the markers say', () => {
      const decision = decideTurn(conversation('gemini', geminiRouterRequest('[[scenario:error 500]] hi')));
      expect(decision).toMatchObject({ kind: 'json', value: { complexity_reasoning: expect.any(String), complexity_score: 1 } });
    });
  });

  describe('given a request that forces one tool', () => {
    it('calls a forced non-shell tool with every property filled (JSON through a tool)', () => {
      const body = {
        ...chatCompletionsRequest({ prompt: 'next speaker?' }),
        tools: [
          ...(chatCompletionsRequest({ prompt: '' })['tools'] as unknown[]),
          { type: 'function', function: { name: 'respond_in_schema', parameters: { type: 'object', properties: { reasoning: { type: 'string' }, next_speaker: { type: 'string', enum: ['model', 'user'] } } } } },
        ],
        tool_choice: { type: 'function', function: { name: 'respond_in_schema' } },
      };
      const decision = toolCall(decideTurn(conversation('openai-chat', body)));
      expect(decision.tool.name).toBe('respond_in_schema');
      expect(decision.arguments).toEqual({ reasoning: expect.any(String), next_speaker: 'user' });
    });

    it('reads Gemini\'s ANY mode with one allowed function and Anthropic\'s tool choice', () => {
      const gemini = conversation('gemini', { ...geminiRequest({ prompt: 'x' }), toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['read_file'] } } });
      expect(toolCall(decideTurn(gemini)).arguments).toEqual({ absolute_path: '.' });
      const anthropic = conversation('anthropic-messages', { ...claudeCodeRequest({ prompt: 'x' }), tool_choice: { type: 'tool', name: 'Read' } });
      expect(toolCall(decideTurn(anthropic)).tool.name).toBe('Read');
    });

    it('still calls the shell as usual when the forced tool is the shell', () => {
      const anthropic = conversation('anthropic-messages', { ...claudeCodeRequest({ prompt: 'x' }), tool_choice: { type: 'tool', name: 'Bash' } });
      expect(toolCall(decideTurn(anthropic)).arguments).toEqual({ command: 'echo mock-model-tool-call' });
    });
  });

  describe('given secrets in the conversation', () => {
    it('repeats secrets from earlier turns in the answer (resume proof)', () => {
      const body = claudeCodeRequest({ prompt: '[[scenario:text]] what did I say?', earlierPrompts: ['[[secret:pineapple]] remember this', '[[scenario:remember kiwi]]'] });
      expect(text(decideTurn(conversation('anthropic-messages', body)))).toBe('Mock model reply. Remembered from earlier turns: pineapple, kiwi.');
    });

    it('repeats them in the final text after a tool result too', () => {
      const body = codexRequest({ prompt: 'go on', earlierPrompts: ['[[secret:mango]]'], toolOutput: 'ok' });
      expect(text(decideTurn(conversation('openai-responses', body)))).toBe('Mock model final answer. Tool output: ok Remembered from earlier turns: mango.');
    });

    it('does not count a secret in the latest prompt as remembered', () => {
      const body = geminiRequest({ prompt: '[[scenario:remember papaya]] [[scenario:text]]' });
      expect(text(decideTurn(conversation('gemini', body)))).toBe('Mock model reply. I will remember papaya.');
    });
  });
});

describe('finding the latest human prompt', () => {
  it('skips system-reminder and environment-context blocks and tool results', () => {
    const normalized = conversation('anthropic-messages', claudeCodeRequest({ prompt: 'the prompt', toolOutput: 'x' }));
    const index = findLatestHumanPromptIndex(normalized.turns);
    expect(normalized.turns[index]?.parts).toContainEqual({ kind: 'text', text: 'the prompt' });
  });

  it('treats text wholly wrapped in one tag as injected context', () => {
    expect(isInjectedContext('<system-reminder>\nx\n</system-reminder>')).toBe(true);
    expect(isInjectedContext('<environment_context>\n<cwd>/a</cwd>\n</environment_context>')).toBe(true);
    expect(isInjectedContext('<b>bold</b> then more')).toBe(false);
    expect(isInjectedContext('write a file')).toBe(false);
  });
});

describe('splitIntoDeltas', () => {
  it('keeps every character', () => {
    const sample = 'One two  three four five six seven.';
    expect(splitIntoDeltas(sample).join('')).toBe(sample);
    expect(splitIntoDeltas(sample).length).toBeGreaterThan(1);
  });
});
