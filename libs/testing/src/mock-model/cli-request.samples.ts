/**
 * Request bodies shaped like the ones the real CLIs send (agent-clis.md), trimmed to the fields the
 * mock reads plus a few it must tolerate. For the mock's own tests; conformance tests use the CLIs.
 */

export interface SampleConversation {
  readonly prompt: string;
  /** Earlier human prompts, each answered with text (a resumed session's history). */
  readonly earlierPrompts?: readonly string[];
  /** When set, the latest prompt was answered with a shell call that printed this. */
  readonly toolOutput?: string;
  readonly stream?: boolean;
}

const CLAUDE_BASH_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    command: { type: 'string', description: 'The command to execute' },
    timeout: { type: 'number', description: 'Optional timeout in milliseconds (max 600000)' },
    description: { type: 'string' },
    run_in_background: { type: 'boolean' },
  },
  required: ['command'],
  additionalProperties: false,
};

/** Claude Code: `POST /v1/messages?beta=true`, system-reminder blocks, a `role: "system"` entry, tool_result in a user message. */
export function claudeCodeRequest(conversation: SampleConversation): { [key: string]: unknown } {
  const reminder = { type: 'text', text: '<system-reminder>\nThis is a reminder from the harness.\n</system-reminder>' };
  const messages: unknown[] = [{ role: 'system', content: 'Session context injected by the harness.' }];
  for (const earlier of conversation.earlierPrompts ?? []) {
    messages.push({ role: 'user', content: [reminder, { type: 'text', text: earlier }] }, { role: 'assistant', content: [{ type: 'text', text: 'Earlier answer.' }] });
  }
  messages.push({ role: 'user', content: [reminder, { type: 'text', text: conversation.prompt }] });
  if (conversation.toolOutput !== undefined) {
    messages.push(
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'echo hi' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: conversation.toolOutput, is_error: false }, reminder] },
    );
  }
  return {
    model: 'claude-sonnet-4-5-20250929',
    max_tokens: 32000,
    stream: conversation.stream ?? true,
    system: [{ type: 'text', text: 'You are Claude Code, a CLI for Claude.' }],
    messages,
    tools: [
      { name: 'Task', description: 'Launch a subagent', input_schema: { type: 'object', properties: { description: { type: 'string' }, prompt: { type: 'string' } }, required: ['description', 'prompt'] } },
      { name: 'Bash', description: 'Executes a bash command', input_schema: CLAUDE_BASH_SCHEMA },
      { name: 'Read', description: 'Reads a file', input_schema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } },
      { type: 'web_search_20250305', name: 'web_search', max_uses: 8 },
    ],
  };
}

/** Codex's shell tool variants: `shell` (argv array) and `exec_command` (`cmd` string plus options). */
export const CODEX_SHELL_TOOL = {
  type: 'function',
  name: 'shell',
  description: 'Runs a shell command and returns its output.',
  strict: false,
  parameters: {
    type: 'object',
    properties: { command: { type: 'array', items: { type: 'string' } }, workdir: { type: 'string' }, timeout_ms: { type: 'number' } },
    required: ['command'],
    additionalProperties: false,
  },
};

export const CODEX_EXEC_COMMAND_TOOL = {
  type: 'function',
  name: 'exec_command',
  description: 'Runs a command in a PTY.',
  strict: false,
  parameters: {
    type: 'object',
    properties: { cmd: { type: 'string' }, workdir: { type: 'string' }, yield_time_ms: { type: 'number' }, login: { type: 'boolean' } },
    required: ['cmd'],
    additionalProperties: false,
  },
};

/** Codex: `POST /v1/responses`, developer and environment-context messages before the prompt, function_call_output items. */
export function codexRequest(conversation: SampleConversation & { readonly shellTool?: { readonly [key: string]: unknown } }): { [key: string]: unknown } {
  const userMessage = (text: string): unknown => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
  const input: unknown[] = [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions instructions>\nSandbox: workspace-write\n</permissions instructions>' }] },
    userMessage('<environment_context>\n  <cwd>/work/project</cwd>\n</environment_context>'),
  ];
  for (const earlier of conversation.earlierPrompts ?? []) {
    input.push(userMessage(earlier), { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Earlier answer.' }] });
  }
  input.push(userMessage(conversation.prompt));
  if (conversation.toolOutput !== undefined) {
    input.push(
      { type: 'reasoning', summary: [], encrypted_content: null },
      { type: 'function_call', name: 'shell', arguments: '{"command":["bash","-lc","echo hi"]}', call_id: 'call_1' },
      { type: 'function_call_output', call_id: 'call_1', output: conversation.toolOutput },
    );
  }
  return {
    model: 'gpt-5-codex',
    instructions: 'You are Codex, a coding agent.',
    input,
    tools: [conversation.shellTool ?? CODEX_SHELL_TOOL, { type: 'custom', name: 'apply_patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: x' } }],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    reasoning: { effort: 'medium', summary: 'auto' },
    store: false,
    stream: conversation.stream ?? true,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: 'thread-1',
  };
}

/** Qwen Code / OpenCode / Pi: `POST /v1/chat/completions` with a function tool and `role: "tool"` results. */
export function chatCompletionsRequest(conversation: SampleConversation): { [key: string]: unknown } {
  const messages: unknown[] = [{ role: 'system', content: 'You are Qwen Code.' }];
  for (const earlier of conversation.earlierPrompts ?? []) messages.push({ role: 'user', content: earlier }, { role: 'assistant', content: 'Earlier answer.' });
  messages.push({ role: 'user', content: [{ type: 'text', text: conversation.prompt }] });
  if (conversation.toolOutput !== undefined) {
    messages.push(
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'run_shell_command', arguments: '{"command":"echo hi"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: conversation.toolOutput },
    );
  }
  return {
    model: 'qwen3-coder-plus',
    messages,
    tools: [
      {
        type: 'function',
        function: {
          name: 'run_shell_command',
          description: 'Runs a shell command.',
          parameters: {
            type: 'object',
            properties: { command: { type: 'string' }, is_background: { type: 'boolean' }, description: { type: 'string' }, directory: { type: 'string' } },
            required: ['command', 'is_background'],
          },
        },
      },
    ],
    stream: conversation.stream ?? true,
    stream_options: { include_usage: true },
  };
}

/** Gemini CLI main turn: setup context first, `functionDeclarations` with `parametersJsonSchema`, functionResponse parts. */
export function geminiRequest(conversation: SampleConversation): { [key: string]: unknown } {
  const contents: unknown[] = [
    { role: 'user', parts: [{ text: 'This is the Gemini CLI. We are setting up the context for our chat.' }] },
    { role: 'model', parts: [{ text: 'Got it. Thanks for the context!' }] },
  ];
  for (const earlier of conversation.earlierPrompts ?? []) contents.push({ role: 'user', parts: [{ text: earlier }] }, { role: 'model', parts: [{ text: 'Earlier answer.' }] });
  contents.push({ role: 'user', parts: [{ text: conversation.prompt }] });
  if (conversation.toolOutput !== undefined) {
    contents.push(
      { role: 'model', parts: [{ functionCall: { name: 'run_shell_command', args: { command: 'echo hi' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'run_shell_command-1', name: 'run_shell_command', response: { output: conversation.toolOutput } } }] },
    );
  }
  return {
    contents,
    systemInstruction: { role: 'user', parts: [{ text: 'You are an interactive CLI agent.' }] },
    tools: [
      {
        functionDeclarations: [
          { name: 'read_file', description: 'Reads a file.', parametersJsonSchema: { type: 'object', properties: { absolute_path: { type: 'string' } }, required: ['absolute_path'] } },
          {
            name: 'run_shell_command',
            description: 'Runs a shell command.',
            parametersJsonSchema: { type: 'object', properties: { command: { type: 'string' }, description: { type: 'string' }, dir_path: { type: 'string' } }, required: ['command'] },
          },
        ],
      },
    ],
    generationConfig: { temperature: 0, topP: 1, thinkingConfig: { includeThoughts: true } },
  };
}

/** Gemini CLI's router call: JSON output with a schema asking for a complexity judgement. */
export function geminiRouterRequest(prompt: string): { [key: string]: unknown } {
  return {
    contents: [{ role: 'user', parts: [{ text: prompt }] }],
    systemInstruction: { role: 'user', parts: [{ text: 'You are a specialized Task Routing AI.' }] },
    generationConfig: {
      temperature: 0,
      maxOutputTokens: 1024,
      responseMimeType: 'application/json',
      responseJsonSchema: {
        type: 'object',
        properties: { complexity_reasoning: { type: 'string' }, complexity_score: { type: 'integer', minimum: 1, maximum: 100 } },
        required: ['complexity_reasoning', 'complexity_score'],
      },
    },
  };
}
