import { Injectable, UnauthorizedException, createParamDecorator, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { bearerTokenOf } from '../../workspace/tokens/api-token.codec';
import { ApiError } from '../../workspace/common/api-error';
import { ApiTokenAuthenticator } from './api-token.authenticator';
import { AuthRateLimitedError } from './auth-rate-limited.error';
import { TASK_TOKEN_GRANT, taskTokenRefusal, type TaskTokenGrant } from './task-token.scope';
import { isTaskToken } from './task-token.verifier';
import type { ApiTokenCaller, Caller } from '../../workspace/common/caller';

interface AuthenticatedRequest {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string | undefined>>;
  readonly body: unknown;
  readonly headers: { readonly authorization?: string };
  readonly socket: { readonly remoteAddress?: string };
  caller?: Caller;
}

/**
 * Every REST route behind it needs `Authorization: Bearer <token>`: an API token (`sy_`), or a
 * task token (`syt_`) on the few routes `@AllowTaskToken` opens, within its task's issue (see
 * `taskTokenRefusal`). A client address that presented too many invalid tokens of either kind is
 * answered 429 with `Retry-After` instead.
 */
@Injectable()
export class ApiTokenGuard implements CanActivate {
  constructor(
    private readonly authenticator: ApiTokenAuthenticator,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerTokenOf(request.headers.authorization);
    if (token !== undefined && isTaskToken(token)) {
      request.caller = await this.taskCaller(request, token, this.reflector.get<TaskTokenGrant | undefined>(TASK_TOKEN_GRANT, context.getHandler()));
      return true;
    }
    const authentication = await this.authenticator.authenticate({ token, clientAddress: request.socket.remoteAddress });
    switch (authentication.outcome) {
      case 'accepted':
        request.caller = authentication.caller;
        return true;
      case 'rate_limited':
        throw new AuthRateLimitedError(authentication.retryAfterSeconds);
      case 'refused':
        throw new UnauthorizedException({ code: 'unauthenticated', message: 'a valid API token is required (Authorization: Bearer sy_...)' });
    }
  }

  /** A live task token first (401 otherwise, whatever the route), then its grant on this route (403). */
  private async taskCaller(request: AuthenticatedRequest, token: string, grant: TaskTokenGrant | undefined): Promise<Caller> {
    const checked = await this.authenticator.authenticateTask({ token, clientAddress: request.socket.remoteAddress });
    if (checked.outcome === 'rate_limited') throw new AuthRateLimitedError(checked.retryAfterSeconds);
    if (checked.outcome === 'refused') throw new ApiError('task_token_inactive', 'the task token is unknown, revoked or expired, or its task attempt has ended');
    const refusal = taskTokenRefusal({ grant, caller: checked.value, request });
    if (refusal) throw refusal;
    return checked.value;
  }
}

/** The authenticated caller of the request (routes behind `ApiTokenGuard` only). */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().caller;
  if (!caller) throw new UnauthorizedException({ code: 'unauthenticated', message: 'a valid API token is required' });
  return caller;
});

/** The caller of a route closed to task tokens: the guard let only an API token through. */
export const CurrentApiTokenCaller = createParamDecorator((_data: unknown, context: ExecutionContext): ApiTokenCaller => {
  const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().caller;
  if (caller?.kind !== 'api_token') throw new UnauthorizedException({ code: 'unauthenticated', message: 'a valid API token is required' });
  return caller;
});
