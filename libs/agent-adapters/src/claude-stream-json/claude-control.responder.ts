import type { ClaudeControlRequest, ClaudeControlResponse } from './claude-wire.types';

/** How the CLI's tool permission prompts are answered: unattended runs cannot ask a person. */
export type ClaudePermissionPolicy = 'allow' | 'deny';

function isControlRequest(event: unknown): event is ClaudeControlRequest {
  const candidate = event as Partial<ClaudeControlRequest> | null;
  return candidate?.type === 'control_request' && typeof candidate.request_id === 'string' && typeof candidate.request === 'object' && candidate.request !== null;
}

/**
 * The answer to a request the CLI sends its host, or `undefined` when the event is not one. Tool
 * permissions follow the policy; anything else (hook callbacks, SDK MCP messages) is refused with an
 * error, since this host registers neither, so the CLI never waits on an answer that will not come.
 */
export function answerClaudeControlRequest(event: unknown, policy: ClaudePermissionPolicy): ClaudeControlResponse | undefined {
  if (!isControlRequest(event)) return undefined;
  const { request_id: requestId, request } = event;
  if (request.subtype === 'can_use_tool') {
    const response =
      policy === 'allow'
        ? { behavior: 'allow', updatedInput: request.input ?? {} }
        : { behavior: 'deny', message: `tool ${request.tool_name ?? 'call'} denied by the runtime's permission policy` };
    return { type: 'control_response', response: { subtype: 'success', request_id: requestId, response } };
  }
  return { type: 'control_response', response: { subtype: 'error', request_id: requestId, error: `unsupported control request: ${request.subtype}` } };
}
