import type {
  ConversationPart,
  ConversationRole,
  ConversationTurn,
  JsonDemand,
  JsonSchema,
  ModelApi,
  NormalizedConversation,
  ToolOffer,
} from './conversation.types';
import { isSchema } from './json-schema.filler';

type JsonObject = { readonly [key: string]: unknown };

export interface NormalizeRequest {
  readonly api: ModelApi;
  readonly body: unknown;
  /** Used when the body names no model (Gemini names it in the path). */
  readonly model: string;
  /** Gemini decides streaming by path (`:streamGenerateContent`), the others by `stream: true`. */
  readonly stream?: boolean;
}

/** Turns one API's request body into the neutral conversation the decider reads. */
export function normalizeConversation(request: NormalizeRequest): NormalizedConversation {
  const body = asObject(request.body);
  switch (request.api) {
    case 'anthropic-messages':
      return normalizeAnthropicMessages(body, request.model);
    case 'openai-responses':
      return normalizeOpenAiResponses(body, request.model);
    case 'openai-chat':
      return normalizeOpenAiChat(body, request.model);
    case 'gemini':
      return normalizeGemini(body, request.model, request.stream ?? false);
  }
}

/** Anthropic Messages: `system`, `messages[]` of text / tool_use / tool_result blocks, `tools[].input_schema`. */
export function normalizeAnthropicMessages(body: JsonObject, fallbackModel: string): NormalizedConversation {
  const turns = asArray(body['messages']).map(asObject).map((message): ConversationTurn => {
    const content = message['content'];
    const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : asArray(content).map(asObject);
    return { role: role(message['role']), parts: blocks.flatMap(anthropicPart) };
  });
  const tools = asArray(body['tools'])
    .map(asObject)
    .flatMap((tool): ToolOffer[] => (isSchema(tool['input_schema']) ? [{ kind: 'function', name: asString(tool['name']), parameters: tool['input_schema'] }] : []));
  const outputFormat = asObject(body['output_format'] ?? asObject(body['output_config'])['format']);
  return {
    api: 'anthropic-messages',
    model: asString(body['model']) || fallbackModel,
    stream: body['stream'] === true,
    system: textsOf(body['system']),
    turns,
    tools,
    jsonDemand: outputFormat['type'] === 'json_schema' ? { schema: schemaOrUndefined(outputFormat['schema']) } : undefined,
    forcedToolName: namedToolChoice(body['tool_choice'], 'tool'),
  };
}

function anthropicPart(block: JsonObject): ConversationPart[] {
  switch (block['type']) {
    case 'text':
      return [{ kind: 'text', text: asString(block['text']) }];
    case 'tool_use':
      return [{ kind: 'tool-call', callId: asString(block['id']), name: asString(block['name']), arguments: block['input'] }];
    case 'tool_result':
      return [{ kind: 'tool-result', callId: asString(block['tool_use_id']), output: textsOf(block['content']).join('\n'), isError: block['is_error'] === true }];
    default:
      return [];
  }
}

/** OpenAI Responses: `instructions`, `input` (a string or items), `tools[]` of function / local_shell. */
export function normalizeOpenAiResponses(body: JsonObject, fallbackModel: string): NormalizedConversation {
  const input = body['input'];
  const items = typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : asArray(input).map(asObject);
  const tools = asArray(body['tools'])
    .map(asObject)
    .flatMap((tool): ToolOffer[] => {
      if (tool['type'] === 'local_shell') return [{ kind: 'local-shell', name: 'local_shell', parameters: undefined }];
      if (tool['type'] === 'function') return [{ kind: 'function', name: asString(tool['name']), parameters: schemaOrUndefined(tool['parameters']) }];
      if (tool['type'] === 'namespace') return namespaceTools(tool);
      return [];
    });
  const format = asObject(asObject(body['text'])['format']);
  return {
    api: 'openai-responses',
    model: asString(body['model']) || fallbackModel,
    stream: body['stream'] === true,
    system: textsOf(body['instructions']),
    turns: items.flatMap(responsesTurn),
    tools,
    jsonDemand: jsonDemandFromOpenAiFormat(format['type'], format['schema']),
    forcedToolName: namedToolChoice(body['tool_choice'], 'function'),
  };
}

/** A Responses API `namespace` tool: its function tools, each offered under the namespace. */
function namespaceTools(tool: JsonObject): ToolOffer[] {
  const namespace = asString(tool['name']);
  return asArray(tool['tools'])
    .map(asObject)
    .filter((inner) => inner['type'] === 'function')
    .map((inner): ToolOffer => ({ kind: 'function', name: asString(inner['name']), parameters: schemaOrUndefined(inner['parameters']), namespace }));
}

function responsesTurn(item: JsonObject): ConversationTurn[] {
  const type = item['type'] ?? (item['role'] !== undefined ? 'message' : undefined);
  switch (type) {
    case 'message':
      return [{ role: role(item['role']), parts: textsOf(item['content']).map((text) => ({ kind: 'text', text })) }];
    case 'function_call':
    case 'custom_tool_call':
      return [assistantCall(item['call_id'], item['name'], parseJsonOrKeep(item['arguments'] ?? item['input']))];
    case 'local_shell_call':
      return [assistantCall(item['call_id'] ?? item['id'], 'local_shell', item['action'])];
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output':
      return [{ role: 'user', parts: [{ kind: 'tool-result', callId: asString(item['call_id']), output: outputText(item['output']), isError: false }] }];
    default:
      return [];
  }
}

/** OpenAI Chat Completions: `messages[]` (system / user / assistant with tool_calls / tool), `tools[].function`. */
export function normalizeOpenAiChat(body: JsonObject, fallbackModel: string): NormalizedConversation {
  const turns = asArray(body['messages']).map(asObject).map((message): ConversationTurn => {
    if (message['role'] === 'tool') {
      return { role: 'user', parts: [{ kind: 'tool-result', callId: asString(message['tool_call_id']), output: textsOf(message['content']).join('\n'), isError: false }] };
    }
    const calls = asArray(message['tool_calls']).map(asObject).map((call): ConversationPart => {
      const callFunction = asObject(call['function']);
      return { kind: 'tool-call', callId: asString(call['id']), name: asString(callFunction['name']), arguments: parseJsonOrKeep(callFunction['arguments']) };
    });
    return { role: role(message['role']), parts: [...textsOf(message['content']).map((text): ConversationPart => ({ kind: 'text', text })), ...calls] };
  });
  const tools = asArray(body['tools'])
    .map(asObject)
    .flatMap((tool): ToolOffer[] => {
      const declared = asObject(tool['function']);
      return tool['type'] === 'function' ? [{ kind: 'function', name: asString(declared['name']), parameters: schemaOrUndefined(declared['parameters']) }] : [];
    });
  const responseFormat = asObject(body['response_format']);
  return {
    api: 'openai-chat',
    model: asString(body['model']) || fallbackModel,
    stream: body['stream'] === true,
    system: [],
    turns,
    tools,
    jsonDemand: jsonDemandFromOpenAiFormat(responseFormat['type'], asObject(responseFormat['json_schema'])['schema']),
    forcedToolName: namedToolChoice(body['tool_choice'], 'function'),
  };
}

/** Gemini generateContent: `systemInstruction`, `contents[].parts` (text / functionCall / functionResponse), `tools[].functionDeclarations`. */
export function normalizeGemini(body: JsonObject, model: string, stream: boolean): NormalizedConversation {
  const turns = asArray(body['contents']).map(asObject).map((content): ConversationTurn => ({
    role: content['role'] === 'model' ? 'assistant' : 'user',
    parts: asArray(content['parts']).map(asObject).flatMap(geminiPart),
  }));
  const tools = asArray(body['tools'])
    .map(asObject)
    .flatMap((tool) => asArray(tool['functionDeclarations']).map(asObject))
    .map((declaration): ToolOffer => ({
      kind: 'function',
      name: asString(declaration['name']),
      parameters: schemaOrUndefined(declaration['parametersJsonSchema'] ?? declaration['parameters']),
    }));
  const generation = asObject(body['generationConfig']);
  const schema = schemaOrUndefined(generation['responseJsonSchema'] ?? generation['responseSchema']);
  const demandsJson = generation['responseMimeType'] === 'application/json' || schema !== undefined;
  const calling = asObject(asObject(body['toolConfig'])['functionCallingConfig']);
  const allowed = asArray(calling['allowedFunctionNames']).filter((name): name is string => typeof name === 'string');
  return {
    api: 'gemini',
    model,
    stream,
    system: textsOf(asObject(body['systemInstruction'])['parts'] ?? body['systemInstruction']),
    turns,
    tools,
    jsonDemand: demandsJson ? { schema } : undefined,
    forcedToolName: calling['mode'] === 'ANY' && allowed.length === 1 ? allowed[0] : undefined,
  };
}

function geminiPart(part: JsonObject): ConversationPart[] {
  if (part['thought'] === true) return [];
  if (typeof part['text'] === 'string') return [{ kind: 'text', text: part['text'] }];
  const call = asObject(part['functionCall']);
  if (part['functionCall'] !== undefined) return [{ kind: 'tool-call', callId: asString(call['id']) || asString(call['name']), name: asString(call['name']), arguments: call['args'] }];
  const response = asObject(part['functionResponse']);
  if (part['functionResponse'] !== undefined) {
    const payload = asObject(response['response']);
    const output = typeof payload['output'] === 'string' ? payload['output'] : JSON.stringify(response['response'] ?? {});
    return [{ kind: 'tool-result', callId: asString(response['id']) || asString(response['name']), output, isError: payload['error'] !== undefined }];
  }
  return [];
}

/** `{type: 'tool', name}` (Anthropic), `{type: 'function', name}` (Responses), `{type: 'function', function: {name}}` (Chat). */
function namedToolChoice(choice: unknown, type: 'tool' | 'function'): string | undefined {
  const object = asObject(choice);
  if (object['type'] !== type) return undefined;
  return asString(object['name']) || asString(asObject(object['function'])['name']) || undefined;
}

function jsonDemandFromOpenAiFormat(type: unknown, schema: unknown): JsonDemand | undefined {
  if (type === 'json_schema') return { schema: schemaOrUndefined(schema) };
  if (type === 'json_object') return { schema: undefined };
  return undefined;
}

function assistantCall(callId: unknown, name: unknown, callArguments: unknown): ConversationTurn {
  return { role: 'assistant', parts: [{ kind: 'tool-call', callId: asString(callId), name: asString(name), arguments: callArguments }] };
}

function role(value: unknown): ConversationRole {
  if (value === 'assistant' || value === 'model') return 'assistant';
  if (value === 'system' || value === 'developer') return 'system';
  return 'user';
}

/** Texts of a string, a block array (`text`, `input_text`, `output_text`) or a `{ text }` object. */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap((entry) => textsOf(entry));
  const object = asObject(value);
  return typeof object['text'] === 'string' ? [object['text']] : [];
}

/** A Responses tool output: a string, content items, or `{ content, success }`. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  const texts = textsOf(output);
  if (texts.length > 0) return texts.join('\n');
  const content = asObject(output)['content'];
  return typeof content === 'string' ? content : JSON.stringify(output ?? '');
}

function parseJsonOrKeep(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function schemaOrUndefined(value: unknown): JsonSchema | undefined {
  return isSchema(value) ? value : undefined;
}

function asObject(value: unknown): JsonObject {
  return isSchema(value) ? value : {};
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
