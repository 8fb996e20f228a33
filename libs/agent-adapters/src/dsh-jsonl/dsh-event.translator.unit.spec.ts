import { createRecordingContext, expectMessagesAcceptedByContract, fixtureReader, replay as replayEvents, type TranslatorRecording } from '../backend/translator-replay.spec-helper';
import { buildDshCancelCommand, buildDshExecuteCommand, DshInvalidModelError, parseDshModelId } from './dsh-command.builder';
import { createDshEventTranslator, type DshEventTranslatorOptions } from './dsh-event.translator';

const fixtures = fixtureReader(__dirname);

/**
 * Replays hand-written frames: no DSH build is public, so they follow the frame shapes of the public
 * client (multica-ai/multica `server/pkg/agent/dsh.go`), not a recording.
 */
function replay(fixture: string, options: Partial<DshEventTranslatorOptions> = {}): TranslatorRecording & { readonly hooks: string[] } {
  const hooks: string[] = [];
  const recording = replayEvents(
    (context) =>
      createDshEventTranslator(context, {
        requestId: 'req-1',
        onReady: () => hooks.push('ready'),
        onCancelled: () => hooks.push('cancelled'),
        onProtocolFailure: () => hooks.push('protocol-failure'),
        ...options,
      }),
    fixtures.jsonLines(fixture),
  );
  return { ...recording, hooks };
}

describe('DSH event translator (hand-written frames after the public client)', () => {
  it('turns a tool call and the answer into timeline messages, session, usage totals and the result', () => {
    const run = replay('tool-call-then-text.jsonl');

    expect(run.hooks).toEqual(['ready']);
    expect(run.messages.map((message) => message.type)).toEqual(['log', 'status', 'thinking', 'tool-use', 'tool-result', 'text']);
    expect(run.messages[1]).toEqual({ type: 'status', sessionId: 'dsh-session-1', state: 'started' });
    expect(run.messages[3]).toEqual({ type: 'tool-use', tool: 'shell', callId: 'call-1', input: { command: 'ls' } });
    expect(run.messages[4]).toEqual({ type: 'tool-result', callId: 'call-1', tool: 'shell', output: 'README.md', status: 'ok' });
    expect(run.sessionIds).toEqual(['dsh-session-1']);
    // Each usage frame is one model call; the reported figure is the running total.
    expect(run.usage.at(-1)).toEqual({ provider: 'mock', model: 'mock-1', inputTokens: 30, outputTokens: 7, cacheReadTokens: 4, cacheWriteTokens: 0 });
    expect(run.results).toEqual([{ status: 'completed', output: 'There is one file: README.md.' }]);
    expect(run.malformed).toEqual([]);
  });

  it('announces a resumed session as resumed', () => {
    const run = replay('resumed-text.jsonl', { resumeSessionId: 'dsh-session-1' });
    expect(run.messages).toContainEqual({ type: 'status', sessionId: 'dsh-session-1', state: 'resumed' });
    expect(run.resumeRejected).toBe(0);
  });

  it('reports a rejected resume as rejected and failed, without adopting a session', () => {
    const run = replay('resume-rejected.jsonl', { resumeSessionId: 'gone-session' });
    expect(run.resumeRejected).toBe(1);
    expect(run.sessionIds).toEqual([]);
    expect(run.results).toEqual([{ status: 'failed', errorMessage: 'session_not_found: no session gone-session' }]);
    expect(run.messages).toContainEqual(expect.objectContaining({ type: 'error', code: 'dsh_resume_rejected' }));
  });

  it('does not adopt the rejected id when a session frame says the resume was rejected', () => {
    const { recording, context } = createRecordingContext();
    const translate = createDshEventTranslator(context, { requestId: 'req-1', resumeSessionId: 'old' });
    translate({ v: 1, type: 'session', request_id: 'req-1', session_id: 'old', resume_rejected: true });
    translate({ v: 1, type: 'session', request_id: 'req-1', session_id: 'fresh', resumed: false });
    expect(recording.resumeRejected).toBe(1);
    expect(recording.sessionIds).toEqual(['fresh']);
  });

  it('leaves a cancelled request to the backend instead of reporting a failure', () => {
    const run = replay('cancelled.jsonl');
    expect(run.hooks).toEqual(['ready', 'cancelled']);
    expect(run.results).toEqual([]);
    expect(run.messages.at(-1)).toEqual({ type: 'status', state: 'cancelled' });
  });

  it('ends the run with a typed error when ready advertises another protocol version', () => {
    const run = replay('ready-of-another-version.jsonl');
    expect(run.hooks).toEqual(['protocol-failure']);
    expect(run.results).toEqual([
      { status: 'failed', errorCode: 'protocol_version_unsupported', errorMessage: 'dsh_protocol_version_unsupported: DSH is ready with protocol version 2, this client speaks version 1' },
    ]);
    expect(run.messages).toEqual([expect.objectContaining({ type: 'error', code: 'dsh_protocol_version_unsupported' })]);
  });

  it('ends the run on a frame of another version and counts what follows instead of reading it', () => {
    const run = replay('frames-of-another-version.jsonl');
    expect(run.results).toEqual([
      { status: 'failed', errorCode: 'protocol_version_unsupported', errorMessage: 'dsh_protocol_version_unsupported: DSH sent a ready frame of protocol version 2, this client speaks version 1' },
    ]);
    expect(run.sessionIds).toEqual([]);
    expect(run.malformed).toEqual(['dsh frame after a protocol failure']);
  });

  it('ends the run on a protocol error', () => {
    const run = replay('protocol-error.jsonl');
    expect(run.hooks).toEqual(['ready', 'protocol-failure']);
    expect(run.results).toEqual([{ status: 'failed', errorMessage: 'dsh_protocol_error: invalid_command: execute frame without prompt' }]);
  });

  it('counts frames of another request, without a version, of unknown type or incomplete, and a second result', () => {
    const run = replay('foreign-and-unreadable.jsonl');
    expect(run.malformed).toEqual([
      'dsh frame for another request req-2',
      'dsh frame without a protocol version',
      'unknown dsh frame type telemetry',
      'dsh tool_call without call_id or name',
      'dsh result after the request ended',
    ]);
    expect(run.messages).toContainEqual({ type: 'tool-use', tool: 'shell', callId: 'call-2', input: { raw: 'not json' } });
    expect(run.results).toEqual([{ status: 'completed' }]);
  });

  it('emits only messages the contract accepts', () => {
    for (const fixture of fixtures.names().filter((name) => name.endsWith('.jsonl'))) {
      expectMessagesAcceptedByContract(replay(fixture).messages);
    }
  });
});

describe('DSH commands', () => {
  it('builds the execute frame with the optional fields left out, and the cancel frame', () => {
    expect(buildDshExecuteCommand({ requestId: 'req-1', cwd: '/work', prompt: 'hi' })).toEqual({
      v: 1,
      type: 'execute',
      request_id: 'req-1',
      cwd: '/work',
      prompt: 'hi',
      mcp_servers: [],
    });
    expect(
      buildDshExecuteCommand({
        requestId: 'req-1',
        cwd: '/work',
        prompt: 'hi',
        resumeSessionId: 's-1',
        model: { provider: 'anthropic', id: 'claude' },
        reasoningEffort: 'high',
        mcpServers: [{ name: 'files', transport: 'stdio', command: 'mcp-files' }],
      }),
    ).toMatchObject({ resume_session_id: 's-1', model: { provider: 'anthropic', id: 'claude' }, reasoning_effort: 'high', mcp_servers: [{ name: 'files' }] });
    expect(buildDshCancelCommand('req-1')).toEqual({ v: 1, type: 'cancel', request_id: 'req-1' });
  });

  it('reads provider/model ids, unescaping each part, and refuses anything else', () => {
    expect(parseDshModelId('openrouter/anthropic%2Fclaude-sonnet')).toEqual({ provider: 'openrouter', id: 'anthropic/claude-sonnet' });
    for (const bad of ['claude', '/claude', 'openai/', 'bad%zz/model']) expect(() => parseDshModelId(bad)).toThrow(DshInvalidModelError);
  });
});
