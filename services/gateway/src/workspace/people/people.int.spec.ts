import type { DataSource } from 'typeorm';
import WebSocket from 'ws';
import { createDataSource } from '@switchyard/persistence';
import { runAdminCommand } from '../../admin/admin.command';
import { GatewayTestKit, type TestWorkspace } from '../../gateway-test.spec-helper';
import { TEST_PASSWORD, sessionFromResponse, sessionRequest, signIn, signUpMember, type TestMember } from '../../people-test.spec-helper';

/**
 * People on the real gateway: sessions with their cookies and CSRF, sign-in failures, one-time
 * codes of the admin command, invitations, role changes and their owner rules, token scopes and
 * expiry, and the audit trail of all of it.
 */
describe('people: accounts, sessions, members, tokens, audit (real NATS + Postgres)', () => {
  let kit: GatewayTestKit;
  let workspace: TestWorkspace;
  let admin: TestMember;
  let member: TestMember;

  beforeAll(async () => {
    // This spec fails sign-ins and codes on purpose, all from one address: the limiter is the rate-limit spec's subject.
    kit = await GatewayTestKit.start({ GATEWAY_AUTH_FAILURE_LIMIT: '1000' });
    workspace = await kit.workspace('People');
    admin = await signUpMember(kit, workspace, 'admin');
    member = await signUpMember(kit, workspace, 'member');
  }, 60_000);
  afterAll(async () => {
    await kit?.stop();
  });

  const signInResponse = (body: unknown) => fetch(`${kit.gateway.url}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  describe('sessions', () => {
    it('signs in with email and password: an HttpOnly, SameSite=Lax session cookie, a readable CSRF cookie, and who the person is', async () => {
      const response = await signInResponse({ email: member.email.toUpperCase(), password: TEST_PASSWORD });
      expect(response.status).toBe(200);
      const cookies = response.headers.getSetCookie();
      expect(cookies.find((cookie) => cookie.startsWith('switchyard_session='))).toMatch(/; Path=\/; Expires=.*; HttpOnly; SameSite=Lax$/);
      expect(cookies.find((cookie) => cookie.startsWith('switchyard_csrf='))).not.toMatch(/HttpOnly/);
      const body = (await response.json()) as { user: { email: string }; memberships: unknown[]; csrfToken: string };
      expect(body).toMatchObject({ user: { email: member.email }, memberships: [{ workspaceId: workspace.id, workspaceName: 'People', role: 'member' }] });
      expect(sessionFromResponse(response).csrfToken).toBe(body.csrfToken);
      // Only hashes are kept.
      expect(JSON.stringify(await kit.query('select token_hash, csrf_hash from user_session'))).not.toContain(body.csrfToken);
    });

    it('answers a wrong password and an unknown email alike (401 sign_in_failed), and marks the cookie Secure behind an HTTPS proxy', async () => {
      const wrong = await signInResponse({ email: member.email, password: 'not the password at all' });
      const unknown = await signInResponse({ email: 'nobody@example.com', password: TEST_PASSWORD });
      expect([wrong.status, unknown.status]).toEqual([401, 401]);
      expect([((await wrong.json()) as { error: unknown }).error, ((await unknown.json()) as { error: unknown }).error]).toEqual([
        { code: 'sign_in_failed', message: 'the email and password do not match an active account' },
        { code: 'sign_in_failed', message: 'the email and password do not match an active account' },
      ]);
      const proxied = await fetch(`${kit.gateway.url}/api/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
        body: JSON.stringify({ email: member.email, password: TEST_PASSWORD }),
      });
      expect(proxied.headers.getSetCookie().every((cookie) => / Secure;/.test(cookie))).toBe(true);
    });

    it('reads with the cookie; writes only with the session’s X-CSRF-Token; refuses another site’s origin', async () => {
      const session = await signIn(kit, member.email);
      expect((await sessionRequest(kit, session, 'GET', '/api/issues', { csrf: false })).status).toBe(200);
      const withoutToken = await sessionRequest(kit, session, 'POST', '/api/issues', { body: { title: 'No CSRF' }, csrf: false });
      expect([withoutToken.status, withoutToken.body.error.code]).toEqual([403, 'csrf_failed']);
      const wrongToken = await sessionRequest(kit, { ...session, csrfToken: 'syc_forged' }, 'POST', '/api/issues', { body: { title: 'Forged' } });
      expect([wrongToken.status, wrongToken.body.error.code]).toEqual([403, 'csrf_failed']);
      const foreign = await sessionRequest(kit, session, 'GET', '/api/issues', { headers: { origin: 'https://evil.example' } });
      expect([foreign.status, foreign.body.error.code]).toEqual([403, 'csrf_failed']);
      const own = await sessionRequest(kit, session, 'POST', '/api/issues', { body: { title: 'With CSRF' }, headers: { origin: kit.gateway.url } });
      expect(own.status).toBe(201);
      expect(await kit.query('select title from issue where title = any($1)', [['No CSRF', 'Forged', 'With CSRF']])).toEqual([{ title: 'With CSRF' }]);
    });

    it('names the workspace of a person in several with X-Switchyard-Workspace, and refuses one they are not in', async () => {
      const other = await sessionRequest(kit, admin.session, 'POST', '/api/workspaces', { body: { name: 'Admin’s own' } });
      expect(other.status).toBe(201);
      const ambiguous = await sessionRequest(kit, admin.session, 'GET', '/api/workspace');
      expect([ambiguous.status, ambiguous.body.error.code]).toEqual([400, 'workspace_required']);
      expect((await sessionRequest(kit, admin.session, 'GET', '/api/workspace', { workspaceId: other.body.workspace.id })).body.name).toBe('Admin’s own');
      expect((await sessionRequest(kit, admin.session, 'GET', '/api/workspace', { workspaceId: workspace.id })).body.name).toBe('People');
      const stranger = await sessionRequest(kit, member.session, 'GET', '/api/workspace', { workspaceId: other.body.workspace.id });
      expect([stranger.status, stranger.body.error.code]).toEqual([403, 'not_a_member']);
    });

    it('opens the live WebSocket with the session cookie, from the gateway’s own origin only, and closes it when the session ends', async () => {
      const session = await signIn(kit, admin.email);
      const url = `${kit.gateway.url.replace(/^http/, 'ws')}/api/live?workspace=${workspace.id}`;
      const open = (origin: string) =>
        new Promise<{ socket?: WebSocket; status?: number; frame?: unknown }>((resolve) => {
          const socket = new WebSocket(url, { headers: { cookie: session.cookie, origin } });
          socket.once('message', (data: Buffer) => resolve({ socket, frame: JSON.parse(data.toString()) as unknown }));
          socket.once('unexpected-response', (_request, response) => resolve({ status: response.statusCode }));
        });
      expect(await open('https://evil.example')).toEqual({ status: 403 });
      const opened = await open(kit.gateway.url);
      expect(opened.frame).toEqual({ type: 'ready', workspaceId: workspace.id });
      const closed = new Promise<number>((resolve) => opened.socket!.once('close', (code: number) => resolve(code)));
      expect((await sessionRequest(kit, session, 'POST', '/api/auth/sign-out', { workspaceId: workspace.id })).status).toBe(204);
      // Signed out elsewhere: the recheck closes it (GATEWAY_LIVE_TOKEN_RECHECK_MS).
      expect(await closed).toBe(4403);
    });

    it('signs out: the cookie no longer works, and sign-out itself needs the CSRF token', async () => {
      const session = await signIn(kit, member.email);
      expect((await sessionRequest(kit, session, 'POST', '/api/auth/sign-out', { csrf: false })).status).toBe(403);
      const out = await sessionRequest(kit, session, 'POST', '/api/auth/sign-out');
      expect(out.status).toBe(204);
      expect(out.response.headers.getSetCookie().every((cookie) => /Expires=Thu, 01 Jan 1970/.test(cookie))).toBe(true);
      expect((await sessionRequest(kit, session, 'GET', '/api/me')).status).toBe(401);
    });
  });

  describe('one-time codes of the admin command', () => {
    let dataSource: DataSource;
    beforeAll(async () => {
      dataSource = createDataSource({ url: kit.gateway.databaseUrl!, applicationName: 'people-spec-admin', poolSize: 1 });
      await dataSource.initialize();
    });
    afterAll(async () => {
      await dataSource?.destroy();
    });
    const admin_ = (argv: string[]) => runAdminCommand({ argv, dataSource, settings: { publicUrl: kit.gateway.url, ttlMs: 60_000 } });

    it('prints a sign-in link for the first owner (no password), good once', async () => {
      const printed = await admin_(['sign-in-link', '--email', 'owner@switchyard.local']);
      expect(printed.exitCode).toBe(0);
      const link = printed.lines.find((line) => line.startsWith(`${kit.gateway.url}/auth/link/syl_`))!;
      const first = await fetch(link, { redirect: 'manual' });
      expect([first.status, first.headers.get('location')]).toEqual([303, '/']);
      const me = await sessionRequest(kit, sessionFromResponse(first), 'GET', '/api/me');
      expect(me.body).toMatchObject({ user: { email: 'owner@switchyard.local', hasPassword: false }, memberships: expect.arrayContaining([{ workspaceId: 'default', workspaceName: 'Default', role: 'owner' }]) });
      const again = await fetch(link, { redirect: 'manual' });
      expect(again.status).toBe(401);
      expect(await admin_(['sign-in-link', '--email', 'nobody@example.com'])).toMatchObject({ exitCode: 1 });
      expect(await admin_(['frobnicate'])).toMatchObject({ exitCode: 2 });
    });

    it('resets a forgotten password with a printed code: every old session ends, the new password works, the code is spent', async () => {
      const person = await signUpMember(kit, workspace, 'viewer');
      const oldSession = await signIn(kit, person.email);
      const code = (await admin_(['reset-password', '--email', person.email])).lines[1]!;
      expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      const reset = (body: unknown) => fetch(`${kit.gateway.url}/api/auth/password-reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect((await reset({ email: person.email, code: 'AAAA-BBBB-CCCC', newPassword: 'a brand new passphrase' })).status).toBe(401);
      const done = await reset({ email: person.email, code: code.toLowerCase(), newPassword: 'a brand new passphrase' });
      expect(done.status).toBe(200);
      expect((await sessionRequest(kit, oldSession, 'GET', '/api/me')).status).toBe(401);
      expect((await signInResponse({ email: person.email, password: 'a brand new passphrase' })).status).toBe(200);
      expect((await signInResponse({ email: person.email, password: TEST_PASSWORD })).status).toBe(401);
      expect((await reset({ email: person.email, code, newPassword: 'yet another passphrase' })).status).toBe(401);
    });

    it('changes a password only with the current one, and only signed in (never with a token)', async () => {
      const person = await signUpMember(kit, workspace, 'viewer');
      const wrong = await sessionRequest(kit, person.session, 'PATCH', '/api/me/password', { body: { currentPassword: 'wrong wrong wrong', newPassword: 'another long passphrase' } });
      expect([wrong.status, wrong.body.error.code]).toEqual([401, 'sign_in_failed']);
      const weak = await sessionRequest(kit, person.session, 'PATCH', '/api/me/password', { body: { currentPassword: TEST_PASSWORD, newPassword: 'short' } });
      expect([weak.status, weak.body.error.code]).toEqual([400, 'weak_password']);
      const byToken = await kit.as(person.token).patch('/api/me/password', { currentPassword: TEST_PASSWORD, newPassword: 'another long passphrase' });
      expect([byToken.status, byToken.body.error.code]).toEqual([403, 'token_scope_insufficient']);
      expect((await sessionRequest(kit, person.session, 'PATCH', '/api/me/password', { body: { currentPassword: TEST_PASSWORD, newPassword: 'another long passphrase' } })).status).toBe(204);
      // The session that changed it stays; the password is the new one.
      expect((await sessionRequest(kit, person.session, 'GET', '/api/me')).status).toBe(200);
      expect((await signInResponse({ email: person.email, password: 'another long passphrase' })).status).toBe(200);
    });
  });

  describe('members and invitations', () => {
    it('lets an invitation for one email be accepted by that email only, once; a signed-in person joins as themselves', async () => {
      const invited = await kit.as(admin.token).post('/api/invitations', { role: 'viewer', email: 'pat@example.com' });
      expect(invited.status).toBe(201);
      expect(invited.body.link).toBe(`${kit.gateway.url}/invitations/${invited.body.token as string}`);
      const accept = (body: unknown, cookie?: { cookie: string; csrfToken: string }) =>
        fetch(`${kit.gateway.url}/api/invitations/${invited.body.token as string}/accept`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(cookie ? { cookie: cookie.cookie, 'x-csrf-token': cookie.csrfToken } : {}) },
          body: JSON.stringify(body),
        });
      expect((await accept({ email: 'mallory@example.com', password: TEST_PASSWORD })).status).toBe(401);
      const pat = await accept({ password: TEST_PASSWORD, displayName: 'Pat' });
      expect(pat.status).toBe(200);
      expect(await pat.json()).toMatchObject({ workspaceId: workspace.id, role: 'viewer', user: { email: 'pat@example.com', displayName: 'Pat' } });
      expect((await accept({ password: TEST_PASSWORD })).status).toBe(401);

      // Someone with an account, signed in, joins another workspace with an open invitation.
      const elsewhere = await kit.workspace('Elsewhere');
      const open = await kit.as(elsewhere.token).post('/api/invitations', { role: 'member' });
      const joined = await fetch(`${kit.gateway.url}/api/invitations/${open.body.token as string}/accept`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: member.session.cookie, 'x-csrf-token': member.session.csrfToken },
        body: '{}',
      });
      expect(joined.status).toBe(200);
      expect((await sessionRequest(kit, member.session, 'GET', '/api/me')).body.memberships).toHaveLength(2);
    });

    it('keeps owners an owner’s business and never leaves a workspace without one', async () => {
      const owner = (await kit.as(workspace.token).get('/api/me')).body.user.id as string;
      const byAdmin = await kit.as(admin.token).patch(`/api/members/${owner}`, { role: 'member' });
      expect([byAdmin.status, byAdmin.body.error.code]).toEqual([403, 'owner_required']);
      const promote = await kit.as(admin.token).patch(`/api/members/${member.userId}`, { role: 'owner' });
      expect([promote.status, promote.body.error.code]).toEqual([403, 'owner_required']);
      const lastOwner = await kit.as(workspace.token).patch(`/api/members/${owner}`, { role: 'admin' });
      expect([lastOwner.status, lastOwner.body.error.code]).toEqual([409, 'last_owner']);
      expect((await kit.as(workspace.token).delete(`/api/members/${owner}`)).body.error.code).toBe('last_owner');
    });

    it('narrows a member’s tokens at once when their role goes down, and revokes them when they are removed', async () => {
      const person = await signUpMember(kit, workspace, 'member');
      expect((await kit.as(person.token).post('/api/issues', { title: 'While a member' })).status).toBe(201);
      expect((await kit.as(admin.token).patch(`/api/members/${person.userId}`, { role: 'viewer' })).status).toBe(204);
      const demoted = await kit.as(person.token).post('/api/issues', { title: 'As a viewer' });
      expect([demoted.status, demoted.body.error.code]).toEqual([403, 'forbidden_role']);
      expect((await kit.as(person.token).get('/api/issues')).status).toBe(200);
      expect((await kit.as(admin.token).delete(`/api/members/${person.userId}`)).status).toBe(204);
      expect((await kit.as(person.token).get('/api/issues')).status).toBe(401);
      expect(await kit.query('select revoked_at is not null as revoked from api_token where user_id = $1', [person.userId])).toEqual([{ revoked: true }]);
    });
  });

  // The member now belongs to two workspaces: their session names this one.
  describe('token scopes', () => {
    it('gives a token only what its scopes name, within the role; a scope beyond the role is refused; an expired token is refused', async () => {
      const scoped = await sessionRequest(kit, member.session, 'POST', '/api/tokens', { workspaceId: workspace.id, body: { name: 'read issues', scopes: ['issues:read'], expiresInDays: 1 } });
      expect(scoped.status).toBe(201);
      expect(scoped.body).toMatchObject({ scopes: ['issues:read'], expiresAt: expect.any(String) });
      const token = scoped.body.token as string;
      expect((await kit.as(token).get('/api/issues')).status).toBe(200);
      const write = await kit.as(token).post('/api/issues', { title: 'Not with this token' });
      expect([write.status, write.body.error]).toEqual([403, { code: 'token_scope_insufficient', message: expect.any(String), details: { permission: 'issues:write' } }]);
      const beyond = await sessionRequest(kit, member.session, 'POST', '/api/tokens', { workspaceId: workspace.id, body: { name: 'too much', scopes: ['issues:read', 'secrets:read', 'members:manage'] } });
      expect([beyond.status, beyond.body.error.code, beyond.body.error.details]).toEqual([403, 'scope_exceeds_role', { beyond: ['secrets:read', 'members:manage'] }]);
      // A token made with a scoped token cannot widen it.
      const widened = await kit.as(token).post('/api/tokens', { name: 'wider' });
      expect(widened.body.error.code).toBe('token_scope_insufficient');
      await kit.query(`update api_token set expires_at = now() - interval '1 second' where id = $1`, [scoped.body.id]);
      expect((await kit.as(token).get('/api/issues')).status).toBe(401);
    });

    it('lists one’s own tokens, and everyone’s only for an admin; revokes another’s only as an admin', async () => {
      const own = await kit.as(member.token).get('/api/tokens');
      expect(new Set((own.body.tokens as Array<{ userId: string }>).map((token) => token.userId))).toEqual(new Set([member.userId]));
      expect((await kit.as(member.token).get('/api/tokens?all=true')).body.error.code).toBe('forbidden_role');
      const spare = await sessionRequest(kit, member.session, 'POST', '/api/tokens', { workspaceId: workspace.id, body: { name: 'spare' } });
      const all = await kit.as(admin.token).get('/api/tokens?all=true');
      expect((all.body.tokens as Array<{ id: string }>).map((token) => token.id)).toEqual(expect.arrayContaining([spare.body.id]));
      const adminsOwn = (await kit.as(admin.token).get('/api/tokens')).body.tokens as Array<{ id: string; userId: string }>;
      expect(new Set(adminsOwn.map((token) => token.userId))).toEqual(new Set([admin.userId]));
      // Another's token is not there for a member to revoke; an admin revokes anyone's.
      expect((await kit.as(member.token).delete(`/api/tokens/${adminsOwn[0]!.id}`)).status).toBe(404);
      expect((await kit.as(admin.token).delete(`/api/tokens/${spare.body.id as string}`)).status).toBe(204);
      expect((await kit.as(spare.body.token as string).get('/api/issues')).status).toBe(401);
      expect((await kit.as(admin.token).get('/api/issues')).status).toBe(200);
    });
  });

  describe('audit trail', () => {
    it('records members, roles, invitations, tokens, secrets and daemons for admins, never a secret value', async () => {
      await kit.as(admin.token).post('/api/secrets', { name: 'deploy-key', value: 'ghp_auditedsecretvalue000000000000000000' });
      const page = await kit.as(admin.token).get('/api/audit?limit=200');
      expect(page.status).toBe(200);
      const actions = new Set((page.body.events as Array<{ action: string }>).map((event) => event.action));
      for (const action of ['workspace.created', 'member.invited', 'member.joined', 'member.role_changed', 'member.removed', 'token.created', 'token.revoked', 'secret.created']) expect(actions).toContain(action);
      expect(JSON.stringify(page.body)).not.toContain('ghp_auditedsecretvalue');
      expect((page.body.events as Array<{ action: string; actor: unknown }>).find((event) => event.action === 'secret.created')!.actor).toEqual({ kind: 'user', id: admin.userId });
      const secretsOnly = await kit.as(admin.token).get('/api/audit?action=secret.created');
      expect((secretsOnly.body.events as Array<{ action: string }>).every((event) => event.action === 'secret.created')).toBe(true);
      expect((await kit.as(member.token).get('/api/audit')).body.error.code).toBe('forbidden_role');
    });
  });
});
