import type { Actor } from '@switchyard/contracts';

/** A person or a program holding an API token of the workspace. */
export interface ApiTokenCaller {
  readonly kind: 'api_token';
  readonly workspaceId: string;
  readonly tokenId: string;
}

/**
 * An agent calling back with its task token, for as long as that attempt lives: it acts for its
 * agent on its task's issue (null for a chat, autopilot or quick-create task) and nothing else.
 */
export interface TaskCaller {
  readonly kind: 'task';
  readonly workspaceId: string;
  readonly agentId: string;
  readonly taskId: string;
  readonly attempt: number;
  readonly issueId: string | null;
  readonly chatSessionId: string | null;
}

/** Who is calling: every query of the gateway is scoped to this workspace. */
export type Caller = ApiTokenCaller | TaskCaller;

/** Who a caller's change is recorded as: an agent with its task token acts as that agent. */
export function actorOf(caller: Caller): Actor {
  return caller.kind === 'task' ? { kind: 'agent', id: caller.agentId } : { kind: 'api_token', id: caller.tokenId };
}
