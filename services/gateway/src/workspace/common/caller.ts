import type { Actor } from '@switchyard/contracts';
import { roleGrants, type Permission, type Role } from './access.matrix';

/** How a member's request was authenticated: a personal API token, or a browser session (cookie). */
export interface ApiTokenCredential {
  readonly kind: 'api_token';
  readonly tokenId: string;
  /** What the token may do, within its holder's role; null: all the role allows. */
  readonly scopes: readonly Permission[] | null;
}
export type MemberCredential = ApiTokenCredential | { readonly kind: 'session'; readonly sessionId: string };

/** A person acting in one workspace, with their role there. */
export interface MemberCaller {
  readonly kind: 'member';
  readonly workspaceId: string;
  readonly userId: string;
  readonly role: Role;
  readonly credential: MemberCredential;
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
export type Caller = MemberCaller | TaskCaller;

/** Who a caller's change is recorded as: a person as their user, an agent with its task token as that agent. */
export function actorOf(caller: Caller): Actor {
  return caller.kind === 'task' ? { kind: 'agent', id: caller.agentId } : { kind: 'user', id: caller.userId };
}

/** Whether the caller may do this: its role grants it and, for an API token, the token's scopes name it. */
export function callerHolds(caller: MemberCaller, permission: Permission): boolean {
  if (!roleGrants(caller.role, permission)) return false;
  const { credential } = caller;
  return credential.kind !== 'api_token' || credential.scopes === null || credential.scopes.includes(permission);
}
