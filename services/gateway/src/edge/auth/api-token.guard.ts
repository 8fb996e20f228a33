import { Injectable, UnauthorizedException, createParamDecorator, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { bearerTokenOf } from '../../workspace/tokens/api-token.codec';
import { ApiTokenVerifier } from './api-token.verifier';
import type { Caller } from '../../workspace/common/caller';

interface AuthenticatedRequest {
  readonly headers: { readonly authorization?: string };
  caller?: Caller;
}

/** Every REST route behind it needs `Authorization: Bearer <API token>`. */
@Injectable()
export class ApiTokenGuard implements CanActivate {
  constructor(private readonly verifier: ApiTokenVerifier) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const caller = await this.verifier.verify(bearerTokenOf(request.headers.authorization));
    if (!caller) throw new UnauthorizedException({ code: 'unauthenticated', message: 'a valid API token is required (Authorization: Bearer sy_...)' });
    request.caller = caller;
    return true;
  }
}

/** The authenticated caller of the request (routes behind `ApiTokenGuard` only). */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().caller;
  if (!caller) throw new UnauthorizedException({ code: 'unauthenticated', message: 'a valid API token is required' });
  return caller;
});
