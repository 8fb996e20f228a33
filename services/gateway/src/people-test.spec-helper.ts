import { randomBytes } from 'node:crypto';
import type { GatewayTestKit, TestWorkspace } from './gateway-test.spec-helper';
import type { Permission, Role } from './workspace/common/access.matrix';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response bodies loosely; the schemas are proven by the OpenAPI test
type LooseJson = any;

/** A browser session as a test holds it: the two cookies, and the CSRF token for the header. */
export interface TestSession {
  readonly cookie: string;
  readonly csrfToken: string;
}

/** A person of a workspace with a role: their password, a session and a personal token. */
export interface TestMember {
  readonly userId: string;
  readonly email: string;
  readonly password: string;
  readonly role: Role;
  readonly session: TestSession;
  readonly token: string;
}

export const TEST_PASSWORD = 'correct horse battery staple';

/** The session a response's `Set-Cookie` opened. */
export function sessionFromResponse(response: Response): TestSession {
  const cookies = response.headers.getSetCookie().map((line) => line.split(';')[0]!);
  const csrf = cookies.find((cookie) => cookie.startsWith('switchyard_csrf='));
  if (!csrf || !cookies.some((cookie) => cookie.startsWith('switchyard_session='))) throw new Error(`no session cookies in the response (HTTP ${response.status})`);
  return { cookie: cookies.join('; '), csrfToken: csrf.slice('switchyard_csrf='.length) };
}

/** A request as a browser of this session makes it: the cookies, the CSRF header (unless `csrf: false`), a workspace header when named. */
export async function sessionRequest<Body = LooseJson>(
  kit: GatewayTestKit,
  session: TestSession,
  method: string,
  path: string,
  options: { readonly body?: unknown; readonly workspaceId?: string; readonly csrf?: boolean; readonly headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Body; response: Response }> {
  const response = await fetch(`${kit.gateway.url}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      cookie: session.cookie,
      ...(options.csrf === false ? {} : { 'x-csrf-token': session.csrfToken }),
      ...(options.workspaceId ? { 'x-switchyard-workspace': options.workspaceId } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  const body = (text === '' ? undefined : JSON.parse(text)) as unknown;
  return { status: response.status, body: body as Body, response };
}

export async function signIn(kit: GatewayTestKit, email: string, password = TEST_PASSWORD): Promise<TestSession> {
  const response = await fetch(`${kit.gateway.url}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return sessionFromResponse(response);
}

/**
 * A new person in the workspace with this role, the way people arrive: the owner invites them, they
 * accept with a new account (a session), and make a personal token (with `scopes`, if given). An
 * owner is invited as an admin and promoted by the workspace's owner.
 */
export async function signUpMember(kit: GatewayTestKit, workspace: TestWorkspace, role: Role, options: { readonly scopes?: readonly Permission[] } = {}): Promise<TestMember> {
  const invitation = await kit.as(workspace.token).post('/api/invitations', { role: role === 'owner' ? 'admin' : role });
  if (invitation.status !== 201) throw new Error(`invitation failed: ${invitation.status} ${JSON.stringify(invitation.body)}`);
  const email = `${role}-${randomBytes(6).toString('hex')}@example.com`;
  const invitationToken = (invitation.body as { token: string }).token;
  const accepted = await fetch(`${kit.gateway.url}/api/invitations/${invitationToken}/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, displayName: `A ${role}`, password: TEST_PASSWORD }),
  });
  if (accepted.status !== 200) throw new Error(`accepting failed: ${accepted.status} ${await accepted.text()}`);
  const session = sessionFromResponse(accepted);
  const userId = ((await accepted.json()) as { user: { id: string } }).user.id;
  if (role === 'owner') {
    const promoted = await kit.as(workspace.token).patch(`/api/members/${userId}`, { role: 'owner' });
    if (promoted.status !== 204) throw new Error(`promotion failed: ${promoted.status} ${JSON.stringify(promoted.body)}`);
  }
  const token = await sessionRequest(kit, session, 'POST', '/api/tokens', { body: { name: `${role} token`, ...(options.scopes ? { scopes: options.scopes } : {}) } });
  if (token.status !== 201) throw new Error(`token failed: ${token.status} ${JSON.stringify(token.body)}`);
  return { userId, email, password: TEST_PASSWORD, role, session, token: (token.body as { token: string }).token };
}
