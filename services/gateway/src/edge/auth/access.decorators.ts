import { SetMetadata, createParamDecorator, UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import type { Caller, MemberCaller } from '../../workspace/common/caller';
import type { Permission } from '../../workspace/common/access.matrix';

/** What a route behind `AccessGuard` asks of its caller: a permission in the workspace, or only to be signed in. */
export type AccessRequirement = { readonly kind: 'permission'; readonly permission: Permission } | { readonly kind: 'signed_in'; readonly sessionOnly: boolean };

export const ACCESS_REQUIREMENT = 'switchyard:access-requirement';

/** The route needs this permission of the role matrix (access.matrix.ts) in the caller's workspace. */
export const Requires = (permission: Permission): MethodDecorator => SetMetadata(ACCESS_REQUIREMENT, { kind: 'permission', permission } satisfies AccessRequirement);

/**
 * The route is about the signed-in person (their account, their memberships), in no workspace in
 * particular: a session, or an API token without scopes (a scoped token is for what its scopes
 * name). `sessionOnly`: a session only (a password change must not ride a leaked token).
 */
export const SignedIn = (options: { readonly sessionOnly?: boolean } = {}): MethodDecorator =>
  SetMetadata(ACCESS_REQUIREMENT, { kind: 'signed_in', sessionOnly: options.sessionOnly ?? false } satisfies AccessRequirement);

/** A signed-in person, on a `@SignedIn()` route: who, and how (their session, or a personal API token). */
export interface AccountCaller {
  readonly userId: string;
  readonly credential: MemberCaller['credential'];
}

interface RequestWithCaller {
  caller?: Caller;
  account?: AccountCaller;
}

const requestOf = (context: ExecutionContext): RequestWithCaller => context.switchToHttp().getRequest<RequestWithCaller>();
const unauthenticated = (): UnauthorizedException => new UnauthorizedException({ code: 'unauthenticated', message: 'sign in, or send an API token (Authorization: Bearer sy_...)' });

/** The authenticated caller of the request (routes behind `AccessGuard` only). */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  const caller = requestOf(context).caller;
  if (!caller) throw unauthenticated();
  return caller;
});

/** The member calling a route closed to task tokens. */
export const CurrentMember = createParamDecorator((_data: unknown, context: ExecutionContext): MemberCaller => {
  const caller = requestOf(context).caller;
  if (caller?.kind !== 'member') throw unauthenticated();
  return caller;
});

/** The person calling a `@SignedIn()` route. */
export const CurrentAccount = createParamDecorator((_data: unknown, context: ExecutionContext): AccountCaller => {
  const account = requestOf(context).account;
  if (!account) throw unauthenticated();
  return account;
});

/** The route needs no credential (sign-in, a one-time link, a webhook with its own secret); it declares so, and `AccessGuard` is not on it. */
export const PUBLIC_ROUTE = 'switchyard:public-route';
export const Public = (why: string): MethodDecorator => SetMetadata(PUBLIC_ROUTE, why);
