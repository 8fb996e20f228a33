import { chatCompletionsRequest, claudeCodeRequest, codexRequest, geminiRequest, geminiRouterRequest } from './cli-request.samples';
import { normalizeConversation } from './conversation.normalizer';

describe('normalizeConversation', () => {
  it('reads Claude Code: system, a role "system" message, reminders, tool_use and tool_result, schema tools only', () => {
    const conversation = normalizeConversation({ api: 'anthropic-messages', body: claudeCodeRequest({ prompt: 'go', toolOutput: 'out' }), model: 'fallback' });
    expect(conversation).toMatchObject({ model: 'claude-sonnet-4-5-20250929', stream: true, system: ['You are Claude Code, a CLI for Claude.'], jsonDemand: undefined });
    expect(conversation.turns.map((turn) => turn.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(conversation.turns[3]?.parts[0]).toEqual({ kind: 'tool-result', callId: 'toolu_1', output: 'out', isError: false });
    expect(conversation.tools.map((tool) => tool.name)).toEqual(['Task', 'Bash', 'Read']);
  });

  it('reads Codex: instructions, developer messages as system, function calls and outputs, function tools only', () => {
    const conversation = normalizeConversation({ api: 'openai-responses', body: codexRequest({ prompt: 'go', toolOutput: 'out' }), model: 'fallback' });
    expect(conversation.system).toEqual(['You are Codex, a coding agent.']);
    expect(conversation.turns.map((turn) => turn.role)).toEqual(['system', 'user', 'user', 'assistant', 'user']);
    expect(conversation.turns[3]?.parts[0]).toMatchObject({ kind: 'tool-call', name: 'shell', arguments: { command: ['bash', '-lc', 'echo hi'] } });
    expect(conversation.tools).toEqual([expect.objectContaining({ kind: 'function', name: 'shell' })]);
  });

  it('reads a Responses input given as a plain string, output given as content items, and local_shell', () => {
    const conversation = normalizeConversation({
      api: 'openai-responses',
      body: { model: 'm', input: 'hi', tools: [{ type: 'local_shell' }] },
      model: 'fallback',
    });
    expect(conversation.turns).toEqual([{ role: 'user', parts: [{ kind: 'text', text: 'hi' }] }]);
    expect(conversation.tools).toEqual([{ kind: 'local-shell', name: 'local_shell', parameters: undefined }]);
    const withItems = normalizeConversation({
      api: 'openai-responses',
      body: { input: [{ type: 'function_call_output', call_id: 'c', output: [{ type: 'input_text', text: 'one' }] }], text: { format: { type: 'json_schema', schema: { type: 'object' } } } },
      model: 'fallback',
    });
    expect(withItems.turns[0]?.parts[0]).toMatchObject({ kind: 'tool-result', output: 'one' });
    expect(withItems).toMatchObject({ model: 'fallback', jsonDemand: { schema: { type: 'object' } } });
  });

  it('reads Chat Completions: content arrays, tool_calls and role "tool", JSON response formats', () => {
    const conversation = normalizeConversation({ api: 'openai-chat', body: chatCompletionsRequest({ prompt: 'go', toolOutput: 'out' }), model: 'fallback' });
    expect(conversation.turns.map((turn) => turn.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(conversation.turns[1]?.parts).toEqual([{ kind: 'text', text: 'go' }]);
    expect(conversation.turns[3]?.parts[0]).toEqual({ kind: 'tool-result', callId: 'call_1', output: 'out', isError: false });
    const json = normalizeConversation({ api: 'openai-chat', body: { messages: [], response_format: { type: 'json_object' } }, model: 'm' });
    expect(json.jsonDemand).toEqual({ schema: undefined });
  });

  it('reads Gemini: model from the path, functionCall and functionResponse parts, JSON demand', () => {
    const conversation = normalizeConversation({ api: 'gemini', body: geminiRequest({ prompt: 'go', toolOutput: 'out' }), model: 'gemini-2.5-pro', stream: true });
    expect(conversation).toMatchObject({ model: 'gemini-2.5-pro', stream: true, system: ['You are an interactive CLI agent.'], jsonDemand: undefined });
    expect(conversation.turns.at(-1)?.parts[0]).toEqual({ kind: 'tool-result', callId: 'run_shell_command-1', output: 'out', isError: false });
    expect(conversation.tools.map((tool) => tool.name)).toEqual(['read_file', 'run_shell_command']);
    const router = normalizeConversation({ api: 'gemini', body: geminiRouterRequest('hi'), model: 'gemini-2.5-flash-lite' });
    expect(router.jsonDemand?.schema).toMatchObject({ required: ['complexity_reasoning', 'complexity_score'] });
  });

  it('tolerates bodies of the wrong shape', () => {
    expect(normalizeConversation({ api: 'anthropic-messages', body: { messages: 'nope', tools: 3 }, model: 'm' })).toMatchObject({ turns: [], tools: [] });
    expect(normalizeConversation({ api: 'gemini', body: null, model: 'm' })).toMatchObject({ turns: [], tools: [] });
  });
});
