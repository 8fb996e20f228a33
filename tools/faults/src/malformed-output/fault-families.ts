import {
  createAcpBackend,
  createAntigravityBackend,
  createClaudeStreamJsonBackend,
  createCodexAppServerBackend,
  createCopilotJsonlBackend,
  createDshBackend,
  createOpenClawJsonlBackend,
  createOpenCodeBackend,
  createPiBackend,
  createQwenCodeBackend,
  type Backend,
} from '@switchyard/agent-adapters';
import type { FaultStep } from './fault-cli.steps';

export const FAULT_FAMILY_IDS = ['claude', 'qwen', 'codex', 'acp', 'opencode', 'pi', 'copilot', 'openclaw', 'dsh', 'antigravity'] as const;
export type FaultFamilyId = (typeof FAULT_FAMILY_IDS)[number];

/**
 * A family's native frames for the abstract moves a fault case is written in. `undefined` means
 * the family has no such event (OpenClaw streams nothing; OpenCode reports a tool call and its
 * outcome in one event), so a case built on it does not apply.
 */
export interface FaultFrames {
  session(): FaultStep[];
  text(text: string): FaultStep[];
  toolUse(callId: string): FaultStep[] | undefined;
  toolResult(callId: string): FaultStep[] | undefined;
  /** The CLI's own end of a successful run. */
  result(): FaultStep[];
  failedResult(message: string): FaultStep[];
  /** A well-formed envelope of an event type the adapter does not know. */
  unknownEvent(): FaultStep[];
  /** Known event types whose fields have the wrong JSON types (numbers for strings, ...). */
  wrongTypes(): FaultStep[];
}

export interface FaultFamily {
  readonly id: FaultFamilyId;
  readonly createBackend: () => Backend;
  /** What the fake says before the prompt reaches it (JSON-RPC handshake, DSH's ready/execute). */
  readonly handshake: readonly FaultStep[];
  /** Fresh per script: some renderers number their frames. */
  readonly frames: () => FaultFrames;
}

const frame = (value: unknown): FaultStep => ({ frame: value });
const rpc = (method: string, params: unknown): FaultStep => frame({ jsonrpc: '2.0', method, params });

function claudeFrames(): FaultFrames {
  const assistant = (content: unknown[]): FaultStep => frame({ type: 'assistant', session_id: 'fault-session', message: { role: 'assistant', content } });
  return {
    session: () => [frame({ type: 'system', subtype: 'init', session_id: 'fault-session', model: 'fault-model' })],
    text: (text) => [assistant([{ type: 'text', text }])],
    toolUse: (callId) => [assistant([{ type: 'tool_use', id: callId, name: 'Bash', input: { command: 'ls' } }])],
    toolResult: (callId) => [frame({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId, content: 'listing' }] } })],
    result: () => [frame({ type: 'result', subtype: 'success', is_error: false, result: 'done', session_id: 'fault-session' })],
    failedResult: (message) => [frame({ type: 'result', subtype: 'error_during_execution', is_error: true, errors: [message], session_id: 'fault-session' })],
    unknownEvent: () => [frame({ type: 'fault_mystery_event', payload: { a: 1 } })],
    wrongTypes: () => [
      assistant([{ type: 'text', text: 42 }]),
      assistant([{ type: 'tool_use', id: 7, name: { not: 'a string' }, input: 'x' }]),
      frame({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: null, content: 5 }] } }),
      frame({ type: 'system', subtype: 'init', session_id: 99 }),
    ],
  };
}

function codexFrames(): FaultFrames {
  const item = (method: string, value: unknown): FaultStep => rpc(method, { threadId: 'fault-thread', turnId: 'fault-turn', item: value });
  const command = (callId: string, done: boolean): unknown => ({
    type: 'commandExecution',
    id: callId,
    command: 'ls',
    cwd: '/tmp',
    status: done ? 'completed' : 'inProgress',
    aggregatedOutput: done ? 'listing' : null,
    exitCode: done ? 0 : null,
    durationMs: done ? 3 : null,
  });
  return {
    session: () => [rpc('thread/started', { thread: { id: 'fault-thread' } })],
    text: (text) => [item('item/completed', { type: 'agentMessage', id: `message-${text.length}`, text })],
    toolUse: (callId) => [item('item/started', command(callId, false))],
    toolResult: (callId) => [item('item/completed', command(callId, true))],
    result: () => [rpc('turn/completed', { threadId: 'fault-thread', turn: { id: 'fault-turn', status: 'completed', items: [] } })],
    failedResult: (message) => [rpc('turn/completed', { threadId: 'fault-thread', turn: { id: 'fault-turn', status: 'failed', error: { message } } })],
    unknownEvent: () => [rpc('fault/mysteryNotification', { a: 1 })],
    wrongTypes: () => [
      item('item/completed', { type: 'agentMessage', id: 'wrong-1', text: 42 }),
      item('item/started', { type: 'commandExecution', id: 7, command: { not: 'a string' }, cwd: 1, status: 'inProgress' }),
      item('item/completed', { type: 'commandExecution', id: 7, command: 5, cwd: null, status: 'completed', aggregatedOutput: 3, exitCode: 'zero' }),
      rpc('thread/tokenUsage/updated', { tokenUsage: { total: { inputTokens: 'many', outputTokens: null } } }),
    ],
  };
}

function acpFrames(): FaultFrames {
  const update = (value: unknown): FaultStep => rpc('session/update', { sessionId: 'fault-session', update: value });
  return {
    session: () => [],
    text: (text) => [update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } })],
    toolUse: (callId) => [update({ sessionUpdate: 'tool_call', toolCallId: callId, title: 'ls', kind: 'execute', status: 'in_progress', rawInput: { command: 'ls' } })],
    toolResult: (callId) => [
      update({ sessionUpdate: 'tool_call_update', toolCallId: callId, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'listing' } }] }),
    ],
    result: () => [{ reply: 'session/prompt', result: { stopReason: 'end_turn' } }],
    failedResult: (message) => [{ reply: 'session/prompt', error: { code: -32603, message } }],
    unknownEvent: () => [update({ sessionUpdate: 'fault_mystery_update', a: 1 })],
    wrongTypes: () => [
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 42 } }),
      update({ sessionUpdate: 'tool_call', toolCallId: 7, title: { not: 'a string' }, kind: 9, status: 'in_progress' }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 7, status: 'completed', content: 'not a list' }),
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'after the wrong types' } }),
    ],
  };
}

function openCodeFrames(): FaultFrames {
  const event = (type: string, part: unknown): FaultStep => frame({ type, sessionID: 'ses_fault', part });
  return {
    session: () => [event('step_start', {})],
    text: (text) => [event('text', { text })],
    toolUse: () => undefined,
    toolResult: () => undefined,
    result: () => [event('step_finish', { reason: 'stop', tokens: { input: 10, output: 5 } })],
    failedResult: (message) => [frame({ type: 'error', sessionID: 'ses_fault', error: { name: 'APIError', data: { message } } })],
    unknownEvent: () => [event('fault_mystery', { a: 1 })],
    wrongTypes: () => [
      event('text', { text: 42 }),
      event('reasoning', { text: { not: 'a string' } }),
      event('tool_use', { callID: 7, tool: 8, state: { status: 'completed', input: 'x', output: 9 } }),
      frame({ type: 'error', sessionID: 12, error: { name: 13, data: { message: 14 } } }),
    ],
  };
}

function piFrames(): FaultFrames {
  const assistant = (content: unknown[]): FaultStep =>
    frame({ type: 'message_end', message: { role: 'assistant', content, model: 'fault-model', provider: 'fault', usage: { input: 3, output: 2 }, stopReason: 'stop' } });
  return {
    session: () => [frame({ type: 'session', version: 3, id: 'fault-session-uuid', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/tmp' })],
    text: (text) => [assistant([{ type: 'text', text }])],
    toolUse: (callId) => [frame({ type: 'tool_execution_start', toolCallId: callId, toolName: 'bash', args: { command: 'ls' } })],
    toolResult: (callId) => [frame({ type: 'tool_execution_end', toolCallId: callId, toolName: 'bash', result: { content: [{ type: 'text', text: 'listing' }] }, isError: false })],
    result: () => [frame({ type: 'agent_end', messages: [] })],
    failedResult: (message) => [
      frame({ type: 'message_end', message: { role: 'assistant', content: [], model: 'fault-model', stopReason: 'error', errorMessage: message } }),
      frame({ type: 'agent_end', messages: [] }),
    ],
    unknownEvent: () => [frame({ type: 'fault_mystery', a: 1 })],
    wrongTypes: () => [
      assistant([{ type: 'text', text: 42 }]),
      frame({ type: 'tool_execution_start', toolCallId: 7, toolName: 8, args: 'x' }),
      frame({ type: 'tool_execution_end', toolCallId: 7, toolName: { not: 'a string' }, result: 5, isError: 'no' }),
      frame({ type: 'error', message: 10 }),
    ],
  };
}

function copilotFrames(): FaultFrames {
  const event = (type: string, data: unknown): FaultStep => frame({ type, data });
  return {
    session: () => [event('session.start', { sessionId: 'fault-session' })],
    text: (content) => [event('assistant.message', { content })],
    toolUse: (toolCallId) => [event('tool.execution_start', { toolCallId, toolName: 'bash', arguments: { command: 'ls' } })],
    toolResult: (toolCallId) => [event('tool.execution_complete', { toolCallId, success: true, result: { content: 'listing' } })],
    result: () => [frame({ type: 'result', sessionId: 'fault-session', exitCode: 0 })],
    failedResult: (message) => [event('session.error', { errorType: 'fault', message }), frame({ type: 'result', sessionId: 'fault-session', exitCode: 1 })],
    unknownEvent: () => [event('fault.mystery_event', { a: 1 })],
    wrongTypes: () => [
      event('assistant.message', { content: 42 }),
      event('tool.execution_start', { toolCallId: 7, toolName: { not: 'a string' }, arguments: 'x' }),
      event('tool.execution_complete', { toolCallId: 7, success: true, result: { content: 9 } }),
      event('session.error', { errorType: 11, message: 12 }),
    ],
  };
}

function openClawFrames(): FaultFrames {
  // OpenClaw streams nothing: the text of the run arrives in its one reply document at the end.
  const texts: string[] = [];
  const reply = (text: string): unknown => ({
    payloads: [{ text }],
    meta: { durationMs: 12, agentMeta: { sessionId: 'fault-session', provider: 'fault', model: 'fault-model', usage: { input: 3, output: 2 } } },
  });
  return {
    session: () => [],
    text: (text) => {
      texts.push(text);
      return [];
    },
    toolUse: () => undefined,
    toolResult: () => undefined,
    result: () => [{ frame: reply(texts.join('\n') || 'done'), pretty: true }],
    failedResult: (message) => [{ frame: { ok: false, error: { type: 'fault', message } }, pretty: true }],
    unknownEvent: () => [frame({ fault: 'a JSON document that is no reply' })],
    wrongTypes: () => [
      frame({ payloads: [{ text: 42 }], meta: { agentMeta: { sessionId: 5, model: 6, usage: { input: 'many' } } } }),
      frame({ payloads: 'not a list', status: 7 }),
    ],
  };
}

function dshFrames(): FaultFrames {
  const event = (type: string, fields: Record<string, unknown> = {}): FaultStep => frame({ v: 1, type, ...fields });
  return {
    session: () => [event('session', { session_id: 'fault-session' })],
    text: (content) => [event('text', { content })],
    toolUse: (callId) => [event('tool_call', { call_id: callId, name: 'bash', arguments: '{"command":"ls"}' })],
    toolResult: (callId) => [event('tool_result', { call_id: callId, output: 'listing' })],
    result: () => [event('result', { status: 'completed', output: 'done', session_id: 'fault-session' })],
    failedResult: (message) => [event('result', { status: 'failed', error: { code: 'fault', message } })],
    unknownEvent: () => [event('fault_mystery', { a: 1 })],
    wrongTypes: () => [
      event('text', { content: 42 }),
      event('tool_call', { call_id: 7, name: { not: 'a string' }, arguments: 8 }),
      event('tool_result', { call_id: 'wrong-call', name: 9, output: 10, is_error: 'no' }),
      event('usage', { model: 11, input_tokens: 'many' }),
    ],
  };
}

function antigravityFrames(): FaultFrames {
  let nextStep = 0;
  const toolSteps = new Map<string, number>();
  const stepOf = (callId: string): number => {
    if (!toolSteps.has(callId)) toolSteps.set(callId, (nextStep += 1));
    return toolSteps.get(callId)!;
  };
  const step = (value: Record<string, unknown>): FaultStep => frame({ event: 'step_update', step_update: { conversation_id: 'fault-conversation', ...value } });
  return {
    session: () => [frame({ event: 'init', conversation_id: 'fault-conversation', init: { model: 'fault-model' } })],
    text: (text) => [step({ step_index: (nextStep += 1), step_type: 'agent_response', state: 'DONE', text_delta: text })],
    toolUse: (callId) => [step({ step_index: stepOf(callId), step_type: 'tool', tool_name: 'run_command', tool_info: { parameters: { command: 'ls' } }, state: 'ACTIVE' })],
    toolResult: (callId) => [step({ step_index: stepOf(callId), step_type: 'tool', tool_name: 'run_command', state: 'DONE', output: 'listing' })],
    result: () => [frame({ event: 'result', result: { status: 'SUCCESS', response: 'done', conversation_id: 'fault-conversation', usage: { input_tokens: 3, output_tokens: 2 } } })],
    failedResult: (message) => [frame({ event: 'result', result: { status: 'ERROR', error: message, conversation_id: 'fault-conversation' } })],
    unknownEvent: () => [frame({ event: 'fault_mystery', a: 1 })],
    wrongTypes: () => [
      step({ step_index: 90, step_type: 'tool', tool_name: 42, state: 'DONE', output: 43 }),
      step({ step_index: 91, step_type: 'agent_response', state: 'DONE', text_delta: 44 }),
      step({ step_index: 'x', step_type: 'tool', tool_info: { name: 45, parameters: 'y' }, state: 'ERROR', error: { message: 46 } }),
      frame({ event: 'init', conversation_id: 47, init: { model: 48 } }),
    ],
  };
}

const JSON_RPC_INITIALIZE_REPLY = { protocolVersion: 1, agentCapabilities: {}, authMethods: [] };

export const FAULT_FAMILIES: Readonly<Record<FaultFamilyId, FaultFamily>> = {
  claude: { id: 'claude', createBackend: () => createClaudeStreamJsonBackend(), handshake: [], frames: claudeFrames },
  qwen: { id: 'qwen', createBackend: () => createQwenCodeBackend(), handshake: [], frames: claudeFrames },
  codex: {
    id: 'codex',
    createBackend: () => createCodexAppServerBackend(),
    handshake: [
      { reply: 'initialize', result: { userAgent: 'fault-cli/0.0.1' } },
      { reply: 'thread/start', result: { thread: { id: 'fault-thread' }, model: 'fault-model', modelProvider: 'fault' } },
      { reply: 'turn/start', result: { turn: { id: 'fault-turn', status: 'inProgress', items: [] } } },
    ],
    frames: codexFrames,
  },
  acp: {
    id: 'acp',
    createBackend: () => createAcpBackend({ adapterArgs: ['acp'] }),
    handshake: [{ reply: 'initialize', result: JSON_RPC_INITIALIZE_REPLY }, { reply: 'session/new', result: { sessionId: 'fault-session' } }, { await: 'session/prompt' }],
    frames: acpFrames,
  },
  opencode: { id: 'opencode', createBackend: () => createOpenCodeBackend(), handshake: [], frames: openCodeFrames },
  pi: { id: 'pi', createBackend: () => createPiBackend(), handshake: [], frames: piFrames },
  copilot: { id: 'copilot', createBackend: () => createCopilotJsonlBackend(), handshake: [], frames: copilotFrames },
  openclaw: { id: 'openclaw', createBackend: () => createOpenClawJsonlBackend(), handshake: [], frames: openClawFrames },
  dsh: {
    id: 'dsh',
    createBackend: () => createDshBackend(),
    handshake: [{ frame: { v: 1, type: 'ready', runtime: 'fault-cli', protocol_version: 1 } }, { await: 'execute' }],
    frames: dshFrames,
  },
  antigravity: { id: 'antigravity', createBackend: () => createAntigravityBackend({ cliVersion: '1.2.0' }), handshake: [], frames: antigravityFrames },
};
