import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { GatewayConfig } from '../../gateway.config';
import { GATEWAY_CONFIG } from '../../gateway.injection-keys';
import { ApiError } from '../../workspace/common/api-error';
import { AccountService } from '../../workspace/people/account.service';
import {
  acceptInvitationSchema,
  acceptedInvitationSchema,
  passwordChangeSchema,
  passwordResetSchema,
  sessionViewSchema,
  signInSchema,
  type SessionView,
} from '../../workspace/people/people.schemas';
import type { OpenedSession } from '../../workspace/people/sessions.repository';
import { UsersRepository } from '../../workspace/people/users.repository';
import { isoOf } from '../../workspace/common/api-schemas';
import { CurrentAccount, Public, SignedIn, type AccountCaller } from '../auth/access.decorators';
import { AccessGuard, type AccessRequest } from '../auth/access.guard';
import { AuthRateLimitedError } from '../auth/auth-rate-limited.error';
import { CallerAuthenticator } from '../auth/caller.authenticator';
import { csrfRefusal } from '../auth/csrf.check';
import { SESSION_COOKIE, cookiesOf } from '../auth/session.cookies';
import { clearSessionCookies, setSessionCookies, type CookieRequest, type CookieResponse } from '../auth/session-cookie.writer';
import { ApiErrorResponses, ApiJsonBody, ApiJsonResponse, ApiNoContentResponse, ApiSessionAuth, ApiTokenAuth } from '../http/openapi';
import { parseInput } from '../http/parse-input';

type PublicRequest = CookieRequest & Pick<AccessRequest, 'method' | 'socket'>;

/**
 * A person's own way in and their account: sign in with email and password (a session cookie),
 * sign out, a one-time sign-in link or password-reset code from the admin command, accepting an
 * invitation, and who they are.
 */
@ApiTags('account')
@Controller()
export class AccountController {
  constructor(
    private readonly account: AccountService,
    private readonly users: UsersRepository,
    private readonly authenticator: CallerAuthenticator,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post('api/auth/sign-in')
  @HttpCode(200)
  @Public('it is where a person proves who they are; failures count against the address like bad tokens')
  @ApiOperation({ summary: 'Sign in with email and password: sets the session cookie (HttpOnly, SameSite=Lax) and the CSRF cookie' })
  @ApiJsonBody(signInSchema)
  @ApiJsonResponse(200, sessionViewSchema, 'Who is signed in, their workspaces and the CSRF token')
  @ApiErrorResponses('validation_failed', 'sign_in_failed', 'auth_rate_limited')
  async signIn(@Body() body: unknown, @Req() request: PublicRequest, @Res({ passthrough: true }) response: CookieResponse): Promise<SessionView> {
    const input = parseInput(signInSchema, body, { location: 'body' });
    const checked = await this.authenticator.checkSecret(request.socket.remoteAddress, () => this.users.verifySignIn(input.email, input.password));
    if (checked.outcome === 'rate_limited') throw new AuthRateLimitedError(checked.retryAfterSeconds);
    if (checked.outcome === 'refused') throw new ApiError('sign_in_failed', 'the email and password do not match an active account');
    return this.respondWithSession({ request, response, session: await this.account.openSession(checked.value, 'password'), userId: checked.value.id });
  }

  @Post('api/auth/sign-out')
  @ApiSessionAuth()
  @HttpCode(204)
  @UseGuards(AccessGuard)
  @SignedIn({ sessionOnly: true })
  @ApiOperation({ summary: 'End this session and clear its cookies' })
  @ApiNoContentResponse('Signed out')
  @ApiErrorResponses('csrf_failed')
  async signOut(@CurrentAccount() account: AccountCaller, @Req() request: PublicRequest, @Res({ passthrough: true }) response: CookieResponse): Promise<void> {
    if (account.credential.kind === 'session') await this.account.endSession(account.credential.sessionId);
    clearSessionCookies({ response, request, config: this.config });
  }

  @Get('api/me')
  @ApiTokenAuth()
  @UseGuards(AccessGuard)
  @SignedIn()
  @ApiOperation({ summary: 'Who is signed in (a session, or an unscoped personal token), and their workspaces with their role in each' })
  @ApiJsonResponse(200, sessionViewSchema, 'The account; `csrfToken` is null here (the page reads the `switchyard_csrf` cookie)')
  @ApiErrorResponses()
  async me(@CurrentAccount() account: AccountCaller): Promise<SessionView> {
    return { ...(await this.account.whoIs(account.userId)), csrfToken: null, expiresAt: null };
  }

  @Patch('api/me/password')
  @ApiSessionAuth()
  @HttpCode(204)
  @UseGuards(AccessGuard)
  @SignedIn({ sessionOnly: true })
  @ApiOperation({ summary: 'Set a new password (the current one is required when there is one); every other session ends' })
  @ApiJsonBody(passwordChangeSchema)
  @ApiNoContentResponse('Changed')
  @ApiErrorResponses('validation_failed', 'weak_password', 'sign_in_failed', 'csrf_failed')
  async changePassword(@CurrentAccount() account: AccountCaller, @Body() body: unknown): Promise<void> {
    const input = parseInput(passwordChangeSchema, body, { location: 'body' });
    await this.account.changePassword({
      userId: account.userId,
      currentPassword: input.currentPassword,
      newPassword: input.newPassword,
      keepSessionId: account.credential.kind === 'session' ? account.credential.sessionId : undefined,
    });
  }

  @Post('api/auth/password-reset')
  @HttpCode(200)
  @Public('the one-time code an admin printed is its credential; failures count against the address')
  @ApiOperation({ summary: 'Set a new password with the one-time code `npm run admin -- reset-password` printed; signs in' })
  @ApiJsonBody(passwordResetSchema)
  @ApiJsonResponse(200, sessionViewSchema, 'Signed in with the new password')
  @ApiErrorResponses('validation_failed', 'weak_password', 'one_time_code_invalid', 'auth_rate_limited')
  async resetPassword(@Body() body: unknown, @Req() request: PublicRequest, @Res({ passthrough: true }) response: CookieResponse): Promise<SessionView> {
    const input = parseInput(passwordResetSchema, body, { location: 'body' });
    const checked = await this.authenticator.checkSecret(request.socket.remoteAddress, () => this.account.resetPassword(input));
    if (checked.outcome === 'rate_limited') throw new AuthRateLimitedError(checked.retryAfterSeconds);
    if (checked.outcome === 'refused') throw new ApiError('one_time_code_invalid', 'the reset code is unknown, used or expired, or not for this email');
    return this.respondWithSession({ request, response, session: checked.value.session, userId: checked.value.user.id });
  }

  @Get('auth/link/:code')
  @Public('the one-time sign-in link is its credential; failures count against the address')
  @ApiOperation({ summary: 'A one-time sign-in link (`npm run admin -- sign-in-link`, or printed by `npm start`): signs in and goes to the web app' })
  @ApiErrorResponses('one_time_code_invalid', 'auth_rate_limited')
  async signInLink(@Param('code') code: string, @Req() request: PublicRequest, @Res() response: CookieResponse & { redirect(status: number, url: string): void }): Promise<void> {
    const checked = await this.authenticator.checkSecret(request.socket.remoteAddress, () => this.account.useSignInLink(code));
    if (checked.outcome === 'rate_limited') throw new AuthRateLimitedError(checked.retryAfterSeconds);
    if (checked.outcome === 'refused') throw new ApiError('one_time_code_invalid', 'the sign-in link is unknown, used or expired');
    setSessionCookies({ response, request, config: this.config, session: checked.value.session });
    response.redirect(303, '/');
  }

  @Post('api/invitations/:token/accept')
  @HttpCode(200)
  @Public('the one-time invitation is its credential; a signed-in person joins as themselves (with the CSRF check), anyone else makes an account')
  @ApiOperation({ summary: 'Accept an invitation: signed in, you join with the invitation’s role; otherwise give email, displayName and password for a new account (signed in at once)' })
  @ApiJsonBody(acceptInvitationSchema)
  @ApiJsonResponse(200, acceptedInvitationSchema, 'The workspace you joined, your role and account; `csrfToken` of the new session, if one was opened')
  @ApiErrorResponses('validation_failed', 'one_time_code_invalid', 'email_taken', 'weak_password', 'csrf_failed', 'auth_rate_limited')
  async acceptInvitation(
    @Param('token') token: string,
    @Body() body: unknown,
    @Req() request: PublicRequest,
    @Res({ passthrough: true }) response: CookieResponse,
  ): Promise<{ workspaceId: string; role: string; user: SessionView['user']; csrfToken: string | null }> {
    const input = parseInput(acceptInvitationSchema, body ?? {}, { location: 'body' });
    const signedInUserId = await this.signedInUserOf(request);
    const checked = await this.authenticator.checkSecret(request.socket.remoteAddress, async () => {
      try {
        return await this.account.acceptInvitation({ token, signedInUserId, newAccount: input });
      } catch (error) {
        // An unknown or spent invitation is a failed guess; other refusals (a taken email) are not.
        if (error instanceof ApiError && error.code === 'one_time_code_invalid') return undefined;
        throw error;
      }
    });
    if (checked.outcome === 'rate_limited') throw new AuthRateLimitedError(checked.retryAfterSeconds);
    if (checked.outcome === 'refused') throw new ApiError('one_time_code_invalid', 'the invitation is unknown, expired, revoked or already used, or for another email');
    const { session, ...accepted } = checked.value;
    if (session) setSessionCookies({ response, request, config: this.config, session });
    return { ...accepted, csrfToken: session?.csrfToken ?? null };
  }

  /** The person signed in by this request's session cookie, if any; their unsafe request must pass the CSRF check. */
  private async signedInUserOf(request: PublicRequest): Promise<string | undefined> {
    const sessionToken = cookiesOf(typeof request.headers['cookie'] === 'string' ? request.headers['cookie'] : undefined)[SESSION_COOKIE];
    if (!sessionToken) return undefined;
    const checked = await this.authenticator.authenticateSession({ token: sessionToken, clientAddress: request.socket.remoteAddress });
    if (checked.outcome !== 'accepted') return undefined;
    const refusal = csrfRefusal({ request, session: checked.value, publicUrl: this.config.GATEWAY_PUBLIC_URL });
    if (refusal) throw refusal;
    return checked.value.userId;
  }

  private async respondWithSession(options: { readonly request: PublicRequest; readonly response: CookieResponse; readonly session: OpenedSession; readonly userId: string }): Promise<SessionView> {
    setSessionCookies({ response: options.response, request: options.request, config: this.config, session: options.session });
    return { ...(await this.account.whoIs(options.userId)), csrfToken: options.session.csrfToken, expiresAt: isoOf(options.session.expiresAt) };
  }
}
