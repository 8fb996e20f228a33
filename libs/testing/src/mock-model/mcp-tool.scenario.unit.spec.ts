import type { AnswerDecision } from './answer.helpers';
import { chatCompletionsRequest, claudeCodeRequest, codexRequest } from './cli-request.samples';
import { normalizeConversation } from './conversation.normalizer';
import type { ModelApi, NormalizedConversation } from './conversation.types';
import { findToolByNameFragment } from './offered-tool.finder';
import { encodeOpenAiResponsesJson } from './openai-responses.encoder';
import { parseScenarioMarkers } from './scenario-marker.parser';
import { decideTurn, NO_MATCHING_TOOL_PREFIX } from './turn.decider';

const conversation = (api: ModelApi, body: unknown): NormalizedConversation => normalizeConversation({ api, body, model: 'mock', stream: true });

const WRITE_NOTE_SCHEMA = { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } }, required: ['path', 'text'] };

/** A Claude Code request that also offers an MCP tool under Claude's `mcp__<server>__<tool>` name. */
function claudeRequestWithMcpTool(prompt: string, toolOutput?: string): { [key: string]: unknown } {
  const body = claudeCodeRequest({ prompt, ...(toolOutput === undefined ? {} : { toolOutput }) });
  const tools = body['tools'] as unknown[];
  // The sample's earlier call is the shell's; here it was the note tool's.
  const messages = JSON.parse(JSON.stringify(body['messages']).replaceAll('"name":"Bash"', '"name":"mcp__notes__write_note"')) as unknown[];
  return { ...body, messages, tools: [...tools, { name: 'mcp__notes__write_note', description: 'Writes a note', input_schema: WRITE_NOTE_SCHEMA }] };
}

/** An OpenAI chat request (OpenCode names MCP tools `<server>_<tool>`). */
function chatRequestWithMcpTool(prompt: string): { [key: string]: unknown } {
  const body = chatCompletionsRequest({ prompt });
  const tools = body['tools'] as unknown[];
  return { ...body, tools: [...tools, { type: 'function', function: { name: 'notes_write_note', description: 'Writes a note', parameters: WRITE_NOTE_SCHEMA } }] };
}

const MARKER = '[[scenario:mcp-tool write_note {"path":"/tmp/note.txt","text":"hello mcp"}]]';

describe('the mcp-tool scenario', () => {
  describe('parsing the marker', () => {
    it('reads the name fragment and the JSON arguments', () => {
      expect(parseScenarioMarkers(`go ${MARKER}`)).toEqual([{ name: 'mcp-tool', toolNameFragment: 'write_note', arguments: { path: '/tmp/note.txt', text: 'hello mcp' } }]);
    });

    it('takes no arguments as an empty object', () => {
      expect(parseScenarioMarkers('[[scenario:mcp-tool ping]]')).toEqual([{ name: 'mcp-tool', toolNameFragment: 'ping', arguments: {} }]);
    });

    it('ignores a marker whose arguments are not a JSON object, or that names no tool', () => {
      expect(parseScenarioMarkers('[[scenario:mcp-tool write_note {not json}]] [[scenario:mcp-tool write_note [1]]] [[scenario:mcp-tool]]')).toEqual([]);
    });
  });

  describe('given the CLI offers a tool whose name contains the fragment', () => {
    it('when no tool result follows the prompt, then it calls that tool with the marker\'s arguments (Claude\'s mcp__ prefix)', () => {
      const decision = decideTurn(conversation('anthropic-messages', claudeRequestWithMcpTool(`Please ${MARKER}`)));
      expect(decision).toMatchObject({ kind: 'tool-call', tool: { name: 'mcp__notes__write_note' }, arguments: { path: '/tmp/note.txt', text: 'hello mcp' }, command: undefined });
    });

    it('when no tool result follows the prompt, then it calls the chat API\'s <server>_<tool>', () => {
      const decision = decideTurn(conversation('openai-chat', chatRequestWithMcpTool(`Please ${MARKER}`)));
      expect(decision).toMatchObject({ kind: 'tool-call', tool: { name: 'notes_write_note' } });
    });

    it('when the tool result follows, then it answers with the final text quoting it', () => {
      const decision = decideTurn(conversation('anthropic-messages', claudeRequestWithMcpTool(`Please ${MARKER}`, 'wrote /tmp/note.txt')));
      expect(decision).toMatchObject({ kind: 'text', text: 'Mock model final answer. Tool output: wrote /tmp/note.txt' });
    });
  });

  describe('given the CLI defers the tool behind tool_search and lists only its name (Qwen Code)', () => {
    const TOOL_SEARCH = { type: 'function', function: { name: 'tool_search', description: 'Loads deferred tools', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } } };
    const deferredRequest = (extra: { tools?: unknown[]; messages?: unknown[] } = {}): { [key: string]: unknown } => {
      const body = chatCompletionsRequest({ prompt: `Please ${MARKER}` });
      const messages = body['messages'] as unknown[];
      return {
        ...body,
        messages: [{ role: 'system', content: 'Deferred tools: mcp__notes__write_note, mcp__other__ping' }, ...messages.slice(1), ...(extra.messages ?? [])],
        tools: [...(body['tools'] as unknown[]), TOOL_SEARCH, ...(extra.tools ?? [])],
      };
    };
    const searchCall = { role: 'assistant', content: null, tool_calls: [{ id: 'call_s', type: 'function', function: { name: 'tool_search', arguments: '{"query":"select:mcp__notes__write_note"}' } }] };
    const searchResult = { role: 'tool', tool_call_id: 'call_s', content: '<functions>…</functions>' };
    const revealed = { type: 'function', function: { name: 'mcp__notes__write_note', description: 'Writes a note', parameters: WRITE_NOTE_SCHEMA } };

    it('when the tool is not loaded yet, then it loads it by its full name with tool_search', () => {
      expect(decideTurn(conversation('openai-chat', deferredRequest()))).toMatchObject({ kind: 'tool-call', tool: { name: 'tool_search' }, arguments: { query: 'select:mcp__notes__write_note' } });
    });

    it('when the search result revealed it, then it calls the tool', () => {
      const decision = decideTurn(conversation('openai-chat', deferredRequest({ tools: [revealed], messages: [searchCall, searchResult] })));
      expect(decision).toMatchObject({ kind: 'tool-call', tool: { name: 'mcp__notes__write_note' }, arguments: { path: '/tmp/note.txt', text: 'hello mcp' } });
    });

    it('when the tool was called, then it answers with the final text', () => {
      const noteCall = { role: 'assistant', content: null, tool_calls: [{ id: 'call_n', type: 'function', function: { name: 'mcp__notes__write_note', arguments: '{}' } }] };
      const noteResult = { role: 'tool', tool_call_id: 'call_n', content: 'note written to /tmp/note.txt' };
      const decision = decideTurn(conversation('openai-chat', deferredRequest({ tools: [revealed], messages: [searchCall, searchResult, noteCall, noteResult] })));
      expect(decision).toMatchObject({ kind: 'text', text: expect.stringContaining('note written to /tmp/note.txt') as string });
    });
  });

  describe('given the server is still connecting (Claude Code offers WaitForMcpServers)', () => {
    const withWaiter = (toolOutput?: string): { [key: string]: unknown } => {
      const body = claudeCodeRequest({ prompt: `Please ${MARKER}`, ...(toolOutput === undefined ? {} : { toolOutput }) });
      const messages = JSON.parse(JSON.stringify(body['messages']).replaceAll('"name":"Bash"', '"name":"WaitForMcpServers"')) as unknown[];
      return { ...body, messages, tools: [...(body['tools'] as unknown[]), { name: 'WaitForMcpServers', description: 'Waits for MCP servers', input_schema: { type: 'object', properties: {} } }] };
    };

    it('when the tool is not offered yet, then it waits once', () => {
      expect(decideTurn(conversation('anthropic-messages', withWaiter()))).toMatchObject({ kind: 'tool-call', tool: { name: 'WaitForMcpServers' }, arguments: {} });
    });

    it('when it waited and the tool is still not offered, then it says so instead of waiting again', () => {
      expect(decideTurn(conversation('anthropic-messages', withWaiter('all servers ready')))).toMatchObject({ kind: 'text', text: expect.stringContaining(NO_MATCHING_TOOL_PREFIX) as string });
    });
  });

  describe('given no offered tool matches the fragment', () => {
    it('then it answers with text that names the tools on offer, and calls nothing', () => {
      const decision = decideTurn(conversation('anthropic-messages', claudeCodeRequest({ prompt: `Please ${MARKER}` })));
      expect(decision.kind).toBe('text');
      expect(decision.kind === 'text' ? decision.text : '').toBe(`${NO_MATCHING_TOOL_PREFIX} "write_note"; offered: Task, Bash, Read`);
    });
  });

  describe('given Codex offers the server\'s tools in a Responses API namespace', () => {
    const codexWithNamespace = (): { [key: string]: unknown } => {
      const body = codexRequest({ prompt: `Please ${MARKER}` });
      const namespace = { type: 'namespace', name: 'mcp__notes', description: 'Tools in the mcp__notes namespace.', tools: [{ type: 'function', name: 'write_note', strict: false, parameters: WRITE_NOTE_SCHEMA }] };
      return { ...body, tools: [...(body['tools'] as unknown[]), namespace] };
    };

    it('then it calls the tool under its namespace, and the encoded call names both', () => {
      const decision = decideTurn(conversation('openai-responses', codexWithNamespace()));
      expect(decision).toMatchObject({ kind: 'tool-call', tool: { name: 'write_note', namespace: 'mcp__notes' } });
      let counter = 0;
      const encoded = encodeOpenAiResponsesJson(decision as AnswerDecision, { model: 'mock', usage: { inputTokens: 1, outputTokens: 1 }, createdAtSeconds: 1, newId: (prefix) => `${prefix}${(counter += 1)}` });
      expect(encoded).toMatchObject({ output: [{ type: 'function_call', name: 'write_note', namespace: 'mcp__notes', arguments: JSON.stringify({ path: '/tmp/note.txt', text: 'hello mcp' }) }] });
    });
  });

  describe('findToolByNameFragment', () => {
    const offer = (name: string) => ({ kind: 'function' as const, name, parameters: undefined });

    it('prefers a name that ends with the fragment over one that only contains it', () => {
      expect(findToolByNameFragment([offer('write_note_draft'), offer('mcp__notes__write_note')], 'write_note')?.name).toBe('mcp__notes__write_note');
    });

    it('never picks the Responses API\'s built-in shell', () => {
      expect(findToolByNameFragment([{ kind: 'local-shell', name: 'local_shell', parameters: undefined }], 'shell')).toBeUndefined();
    });
  });
});
