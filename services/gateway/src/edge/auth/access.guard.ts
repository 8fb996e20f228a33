import { Inject, Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG } from '../../gateway.injection-keys';
import { ApiError } from '../../workspace/common/api-error';
import { callerHolds, type Caller, type MemberCaller } from '../../workspace/common/caller';
import { PERMISSIONS, roleGrants } from '../../workspace/common/access.matrix';
import type { LiveSession } from '../../workspace/people/sessions.repository';
import { bearerTokenOf } from '../../workspace/tokens/api-token.codec';
import { ACCESS_REQUIREMENT, type AccessRequirement, type AccountCaller } from './access.decorators';
import { AuthRateLimitedError } from './auth-rate-limited.error';
import { CallerAuthenticator } from './caller.authenticator';
import { csrfRefusal } from './csrf.check';
import { SESSION_COOKIE, WORKSPACE_HEADER, cookiesOf } from './session.cookies';
import { TASK_TOKEN_GRANT, taskTokenRefusal, type TaskTokenGrant } from './task-token.scope';
import { isTaskToken } from './task-token.verifier';

export interface AccessRequest {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string | undefined>>;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly socket: { readonly remoteAddress?: string };
  readonly protocol?: string;
  caller?: Caller;
  account?: AccountCaller;
}

const header = (request: AccessRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Every REST route behind it is checked against who sent it (design §9), in this order:
 * 1. who: a personal API token (`Authorization: Bearer sy_...`), a task token (`syt_...`, only on
 *    the routes `@AllowTaskToken` opens, within its task's issue), or a session cookie (whose unsafe
 *    requests must also pass the CSRF check); 401 otherwise, 429 for an address that failed too often;
 * 2. where: an API token's workspace, or the one a session names (`X-Switchyard-Workspace`) if the
 *    person is a member there;
 * 3. what: the route's `@Requires(permission)` against the member's role (403 `forbidden_role`) and
 *    the token's scopes (403 `token_scope_insufficient`); `@SignedIn()` routes need only the person.
 * A route with neither is refused: nothing is open by omission.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly authenticator: CallerAuthenticator,
    private readonly reflector: Reflector,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AccessRequest>();
    const requirement = this.reflector.get<AccessRequirement | undefined>(ACCESS_REQUIREMENT, context.getHandler());
    if (!requirement) throw new ApiError('internal', `${request.method} ${request.path} declares no access requirement`);
    const token = bearerTokenOf(header(request, 'authorization'));
    if (token !== undefined && isTaskToken(token)) {
      request.caller = await this.taskCaller(request, token, this.reflector.get<TaskTokenGrant | undefined>(TASK_TOKEN_GRANT, context.getHandler()));
      return true;
    }
    if (token !== undefined) return this.admitToken(request, token, requirement);
    const sessionToken = cookiesOf(header(request, 'cookie'))[SESSION_COOKIE];
    if (sessionToken) return this.admitSession(request, sessionToken, requirement);
    throw unauthenticated();
  }

  private async admitToken(request: AccessRequest, token: string, requirement: AccessRequirement): Promise<boolean> {
    const authentication = await this.authenticator.authenticate({ token, clientAddress: request.socket.remoteAddress });
    if (authentication.outcome === 'rate_limited') throw new AuthRateLimitedError(authentication.retryAfterSeconds);
    if (authentication.outcome === 'refused') throw unauthenticated();
    const member = authentication.caller;
    if (requirement.kind === 'signed_in') {
      if (requirement.sessionOnly) throw new ApiError('token_scope_insufficient', 'this is done signed in (a browser session), never with an API token');
      if (member.credential.kind === 'api_token' && member.credential.scopes !== null) throw new ApiError('token_scope_insufficient', 'a token with scopes acts only in its workspace, within its scopes');
      request.account = { userId: member.userId, credential: member.credential };
      return true;
    }
    return this.admitMember(request, member, requirement);
  }

  private async admitSession(request: AccessRequest, sessionToken: string, requirement: AccessRequirement): Promise<boolean> {
    const checked = await this.authenticator.authenticateSession({ token: sessionToken, clientAddress: request.socket.remoteAddress });
    if (checked.outcome === 'rate_limited') throw new AuthRateLimitedError(checked.retryAfterSeconds);
    if (checked.outcome === 'refused') throw unauthenticated();
    const session: LiveSession = checked.value;
    const refusal = csrfRefusal({ request, session, publicUrl: this.config.GATEWAY_PUBLIC_URL });
    if (refusal) throw refusal;
    request.account = { userId: session.userId, credential: { kind: 'session', sessionId: session.sessionId } };
    if (requirement.kind === 'signed_in') return true;
    const member = await this.authenticator.memberOf({ session, workspaceId: header(request, WORKSPACE_HEADER) });
    return this.admitMember(request, member, requirement);
  }

  private admitMember(request: AccessRequest, member: MemberCaller, requirement: Extract<AccessRequirement, { kind: 'permission' }>): boolean {
    const { permission } = requirement;
    if (!roleGrants(member.role, permission)) {
      throw new ApiError('forbidden_role', `${permission} needs the ${PERMISSIONS[permission].lowestRole} role or above; you are ${member.role}`, {
        permission,
        lowestRole: PERMISSIONS[permission].lowestRole,
        role: member.role,
      });
    }
    if (!callerHolds(member, permission)) throw new ApiError('token_scope_insufficient', `this API token’s scopes do not include ${permission}`, { permission });
    request.caller = member;
    return true;
  }

  /** A live task token first (401 otherwise, whatever the route), then its grant on this route (403). */
  private async taskCaller(request: AccessRequest, token: string, grant: TaskTokenGrant | undefined): Promise<Caller> {
    const checked = await this.authenticator.authenticateTask({ token, clientAddress: request.socket.remoteAddress });
    if (checked.outcome === 'rate_limited') throw new AuthRateLimitedError(checked.retryAfterSeconds);
    if (checked.outcome === 'refused') throw new ApiError('task_token_inactive', 'the task token is unknown, revoked or expired, or its task attempt has ended');
    const refusal = taskTokenRefusal({ grant, caller: checked.value, request });
    if (refusal) throw refusal;
    return checked.value;
  }
}

function unauthenticated(): UnauthorizedException {
  return new UnauthorizedException({ code: 'unauthenticated', message: 'sign in, or send a valid API token (Authorization: Bearer sy_...)' });
}
