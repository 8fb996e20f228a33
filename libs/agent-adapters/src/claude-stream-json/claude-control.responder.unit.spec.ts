import { answerClaudeControlRequest } from './claude-control.responder';
import { streamJsonFixtures } from './stream-json-replay.spec-helper';

/** The `can_use_tool` request recorded from Claude Code 2.1.197 (`--permission-prompt-tool stdio`). */
const recordedPermissionRequest: unknown = (streamJsonFixtures.jsonLines('permission-prompt-allowed.jsonl') as Array<{ type: string }>).find(
  (event) => event.type === 'control_request',
);

describe('answering Claude control requests', () => {
  it('given a recorded tool permission request and an allow policy, allows it with the input unchanged', () => {
    const answer = answerClaudeControlRequest(recordedPermissionRequest, 'allow');

    expect(answer).toEqual({
      type: 'control_response',
      response: {
        subtype: 'success',
        request_id: 'a27d7228-b90c-41b3-a890-e9658e85b232',
        response: { behavior: 'allow', updatedInput: { command: expect.stringContaining("printf '%s' 'ok'") } },
      },
    });
  });

  it('given a deny policy, denies it with a reason the model can read', () => {
    const answer = answerClaudeControlRequest(recordedPermissionRequest, 'deny');

    expect(answer?.response).toEqual({
      subtype: 'success',
      request_id: 'a27d7228-b90c-41b3-a890-e9658e85b232',
      response: { behavior: 'deny', message: "tool Bash denied by the runtime's permission policy" },
    });
  });

  it('refuses a request this host cannot serve, so the CLI does not wait for an answer', () => {
    const answer = answerClaudeControlRequest({ type: 'control_request', request_id: 'r-1', request: { subtype: 'hook_callback', callback_id: 'x' } }, 'allow');

    expect(answer?.response).toEqual({ subtype: 'error', request_id: 'r-1', error: 'unsupported control request: hook_callback' });
  });

  it('leaves every other event alone', () => {
    expect(answerClaudeControlRequest({ type: 'assistant', message: { content: [] } }, 'allow')).toBeUndefined();
    expect(answerClaudeControlRequest({ type: 'control_response', response: { subtype: 'success', request_id: 'r-2' } }, 'allow')).toBeUndefined();
    expect(answerClaudeControlRequest('not json at all', 'allow')).toBeUndefined();
  });
});
