import { Injectable, UnauthorizedException, createParamDecorator, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { bearerTokenOf } from '../../workspace/tokens/api-token.codec';
import { ApiTokenAuthenticator } from './api-token.authenticator';
import { AuthRateLimitedError } from './auth-rate-limited.error';
import type { Caller } from '../../workspace/common/caller';

interface AuthenticatedRequest {
  readonly headers: { readonly authorization?: string };
  readonly socket: { readonly remoteAddress?: string };
  caller?: Caller;
}

/**
 * Every REST route behind it needs `Authorization: Bearer <API token>`; a client address that
 * presented too many invalid ones is answered 429 with `Retry-After` instead.
 */
@Injectable()
export class ApiTokenGuard implements CanActivate {
  constructor(private readonly authenticator: ApiTokenAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const authentication = await this.authenticator.authenticate({ token: bearerTokenOf(request.headers.authorization), clientAddress: request.socket.remoteAddress });
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
}

/** The authenticated caller of the request (routes behind `ApiTokenGuard` only). */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().caller;
  if (!caller) throw new UnauthorizedException({ code: 'unauthenticated', message: 'a valid API token is required' });
  return caller;
});
