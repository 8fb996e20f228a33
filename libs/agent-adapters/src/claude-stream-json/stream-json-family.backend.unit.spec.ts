import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentMessage } from '@switchyard/contracts';
import type { AgentRunResult, Backend } from '../backend/backend.types';
import { CODEBUDDY_DISALLOWED_TOOLS, createCodeBuddyBackend } from './codebuddy.backend';
import { createCursorAgentBackend } from './cursor-agent.backend';
import { createQwenCodeBackend } from './qwen-code.backend';

const FAKE_CLI = path.join(__dirname, '__fixtures__', 'stream-json-family-fake-cli.js');

async function run(
  backend: Backend,
  options: { prompt?: string; model?: string; resumeSessionId?: string; env?: Record<string, string> } = {},
): Promise<{ args: string[]; prompt: string; messages: AgentMessage[]; result: AgentRunResult }> {
  const session = await backend.execute(options.prompt ?? 'do the thing', {
    cwd: tmpdir(),
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...options.env },
    executable: process.execPath,
    launchArgs: [FAKE_CLI],
    ...(options.model ? { model: options.model } : {}),
    ...(options.resumeSessionId ? { resumeSessionId: options.resumeSessionId } : {}),
    timeouts: { idleMs: 20_000, totalMs: 30_000 },
  });
  const messages: AgentMessage[] = [];
  for await (const message of session.messages) messages.push(message);
  const result = await session.result;
  const echoed = messages.find((message) => message.type === 'text');
  const { args, prompt } = echoed?.type === 'text' ? (JSON.parse(echoed.text) as { args: string[]; prompt: string }) : { args: [], prompt: '' };
  return { args, prompt, messages, result };
}

describe('Claude stream-json family backends (argv and prompt delivery, against a fake CLI)', () => {
  it('Qwen Code: stream-json in and out, --yolo, model and resume flags, the prompt as one user line', async () => {
    const { args, prompt, result } = await run(createQwenCodeBackend(), { prompt: 'write it', model: 'qwen3-coder', resumeSessionId: 'session-1' });

    expect(args).toEqual(['--auth-type', 'openai', '--input-format', 'stream-json', '--output-format', 'stream-json', '--yolo', '--model', 'qwen3-coder', '--resume', 'session-1']);
    expect(prompt).toBe('write it');
    expect(result).toMatchObject({ status: 'completed', sessionId: 'fake-session', output: 'done', exitCode: 0 });
  });

  it('Qwen Code: a resume refused only in prose on stderr is a rejected resume with no tool run', async () => {
    const { result } = await run(createQwenCodeBackend(), {
      resumeSessionId: 'gone',
      env: { FAKE_REFUSE_RESUME: '1', FAKE_REFUSAL_TEXT: 'No saved session found with ID' },
    });
    expect(result).toMatchObject({ status: 'failed', resumeRejected: true, toolRan: false, exitCode: 1, error: { code: 'resume_rejected' } });
  });

  it('CodeBuddy: Claude-fork print mode with bypassed permissions and the interactive tools disallowed', async () => {
    const { args, prompt, result } = await run(createCodeBuddyBackend(), { prompt: 'fix it', model: 'hunyuan-2.0', resumeSessionId: 'session-2' });

    expect(args).toEqual([
      '-p',
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'bypassPermissions',
      '--model',
      'hunyuan-2.0',
      '--resume',
      'session-2',
      '--disallowedTools',
      ...CODEBUDDY_DISALLOWED_TOOLS,
    ]);
    expect(prompt).toBe('fix it');
    expect(result).toMatchObject({ status: 'completed', sessionId: 'fake-session' });
  });

  it('CodeBuddy: a refusal in the fork’s Claude wording on stderr counts as a rejected resume', async () => {
    const { result } = await run(createCodeBuddyBackend(), {
      resumeSessionId: 'gone',
      env: { FAKE_REFUSE_RESUME: '1', FAKE_REFUSAL_TEXT: 'No conversation found with session ID:' },
    });
    expect(result).toMatchObject({ status: 'failed', resumeRejected: true, toolRan: false });
  });

  it('Cursor agent: print mode, --yolo, --workspace, the prompt as plain text on stdin then EOF', async () => {
    const { args, prompt, result } = await run(createCursorAgentBackend(), { prompt: 'line one\nline two', model: 'gpt-5', resumeSessionId: 'chat-3' });

    expect(args).toEqual(['-p', '--output-format', 'stream-json', '--yolo', '--workspace', tmpdir(), '--model', 'gpt-5', '--resume', 'chat-3']);
    expect(prompt).toBe('line one\nline two');
    expect(result).toMatchObject({ status: 'completed', sessionId: 'fake-session', output: 'done' });
  });

  it('Cursor agent: leaves out model and resume when not asked', async () => {
    const { args } = await run(createCursorAgentBackend());
    expect(args).toEqual(['-p', '--output-format', 'stream-json', '--yolo', '--workspace', tmpdir()]);
  });
});
