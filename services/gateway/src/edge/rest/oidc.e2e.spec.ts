import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { generateSecretKey } from '@switchyard/persistence';
import { startServiceForTest, type ServiceUnderTest } from '@switchyard/testing';
import { gatewayApp } from '../../gateway.app';
import type { ApiErrorBody } from '../../workspace/common/api-error';
import type { SessionView } from '../../workspace/people/people.schemas';
import { OIDC_CALLBACK_PATH } from './oidc.controller';
import { OidcModule } from './oidc.module';
import { TestBrowser, startTestIdentityProvider, throughTheProvider, unusedPort, type TestIdentityProvider, type TestProviderAccount } from './oidc-test-provider.spec-helper';

const OWNER_EMAIL = 'owner@switchyard.local';
const ACCOUNTS: readonly TestProviderAccount[] = [
  // The gateway's first owner (GATEWAY_BOOTSTRAP_OWNER_EMAIL): an account that exists, without a password.
  { login: 'owner', email: OWNER_EMAIL, emailVerified: true, name: 'First Owner' },
  { login: 'ada', email: 'ada@example.com', emailVerified: true, name: 'Ada Lovelace' },
  { login: 'mallory', email: 'mallory@example.com', emailVerified: false, name: 'Mallory' },
];

/**
 * The gateway with OidcModule, whether or not GatewayModule registers it yet: a module imported
 * twice is one module, so this stays right once it does.
 */
const gatewayWithOidc: typeof gatewayApp = {
  ...gatewayApp,
  createModule: (config, logger) => {
    const root = gatewayApp.createModule(config, logger);
    return { ...root, imports: [...(root.imports ?? []), OidcModule] };
  },
};

async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const { error } = (await response.json()) as ApiErrorBody;
  return { status: response.status, code: error.code, message: error.message };
}

/**
 * Signing in with a real OpenID Connect provider (panva's oidc-provider on 127.0.0.1), driven the
 * way a browser goes: the gateway's start, the provider's login and consent pages, the callback,
 * then the session cookie on `GET /api/me`. Five gateways share one database and GATEWAY_SECRET_KEYS:
 * one that creates accounts, a replica that does not (people join by invitation), a replica that
 * tolerates two failures, one without OIDC, and one whose provider is down (it boots all the same:
 * the provider is discovered at the first sign-in).
 */
describe('OIDC sign-in against a real local provider (real NATS + Postgres)', () => {
  let provider: TestIdentityProvider;
  let creating: ServiceUnderTest;
  let inviting: ServiceUnderTest;
  let strict: ServiceUnderTest;
  let unset: ServiceUnderTest;
  let unreachable: ServiceUnderTest;
  let database: Client;
  let ownerId: string;

  beforeAll(async () => {
    provider = await startTestIdentityProvider(ACCOUNTS);
    const shared = { GATEWAY_BOOTSTRAP_TOKEN: `sy_${randomBytes(24).toString('base64url')}`, GATEWAY_SECRET_KEYS: generateSecretKey() };
    const oidc = { ...shared, GATEWAY_OIDC_ISSUER: provider.issuer, GATEWAY_OIDC_CLIENT_ID: provider.clientId, GATEWAY_OIDC_CLIENT_SECRET: provider.clientSecret, GATEWAY_AUTH_FAILURE_LIMIT: '100' };
    creating = await startServiceForTest(gatewayWithOidc, { database: true, env: { ...oidc, GATEWAY_OIDC_CREATE_ACCOUNTS: 'true' } });
    inviting = await startServiceForTest(gatewayWithOidc, { database: true, replicaOf: creating, env: { ...oidc, GATEWAY_OIDC_CREATE_ACCOUNTS: 'false' } });
    strict = await startServiceForTest(gatewayWithOidc, { database: true, replicaOf: creating, env: { ...oidc, GATEWAY_AUTH_FAILURE_LIMIT: '2' } });
    unset = await startServiceForTest(gatewayWithOidc, { database: true, replicaOf: creating, env: shared });
    unreachable = await startServiceForTest(gatewayWithOidc, { database: true, replicaOf: creating, env: { ...oidc, GATEWAY_OIDC_ISSUER: `http://127.0.0.1:${await unusedPort()}` } });
    provider.serve([`${creating.url}${OIDC_CALLBACK_PATH}`, `${inviting.url}${OIDC_CALLBACK_PATH}`]);
    database = new Client({ connectionString: creating.databaseUrl });
    await database.connect();
    ownerId = (await database.query<{ id: string }>('select id from app_user where email = $1', [OWNER_EMAIL])).rows[0]!.id;
  }, 180_000);

  afterAll(async () => {
    await database?.end();
    for (const gateway of [unreachable, unset, strict, inviting, creating]) await gateway?.stop();
    await provider?.stop();
  });

  /** Through the provider as `login`, stopping before the callback (so a test can tamper with it or replay it). */
  const toCallback = (gateway: ServiceUnderTest, login: string, browser: TestBrowser): Promise<string> =>
    throughTheProvider({ browser, startUrl: `${gateway.url}/api/auth/oidc/start`, login, callbackPrefix: `${gateway.url}${OIDC_CALLBACK_PATH}` });

  async function signIn(gateway: ServiceUnderTest, login: string): Promise<{ browser: TestBrowser; callback: Response }> {
    const browser = new TestBrowser();
    return { browser, callback: await browser.get(await toCallback(gateway, login, browser)) };
  }

  async function me(gateway: ServiceUnderTest, browser: TestBrowser): Promise<{ status: number; body: SessionView }> {
    const response = await fetch(`${gateway.url}/api/me`, { headers: { cookie: browser.cookieHeader(gateway.url) } });
    return { status: response.status, body: (await response.json()) as SessionView };
  }

  const count = async (sql: string, parameters: unknown[] = []): Promise<number> => Number((await database.query<{ count: string }>(sql, parameters)).rows[0]!.count);

  it('starts with a 303 to the provider: the code flow with S256 PKCE, a state and a nonce, the state sealed in a 10-minute HttpOnly SameSite=Lax cookie', async () => {
    const response = await new TestBrowser().get(`${creating.url}/api/auth/oidc/start`);

    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin).toBe(provider.issuer);
    expect(Object.fromEntries([...location.searchParams].filter(([name]) => !['state', 'nonce', 'code_challenge'].includes(name)))).toEqual({
      client_id: provider.clientId,
      redirect_uri: `${creating.url}/api/auth/oidc/callback`,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    for (const name of ['state', 'nonce', 'code_challenge']) expect(location.searchParams.get(name)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [setCookie] = response.headers.getSetCookie();
    expect(setCookie).toMatch(/^switchyard_oidc=sealed%3Av2%3A[^;]+; Max-Age=600; Path=\/api\/auth\/oidc; HttpOnly; SameSite=Lax$/);
    expect(setCookie).not.toContain(location.searchParams.get('state'));
  });

  it('signs a person in as a browser would: the verified email of an existing account links it, and GET /api/me answers that account', async () => {
    const { browser, callback } = await signIn(creating, 'owner');

    expect({ status: callback.status, location: callback.headers.get('location') }).toEqual({ status: 303, location: '/' });
    expect(browser.cookie(creating.url, 'switchyard_session')).toBeDefined();
    expect(browser.cookie(creating.url, 'switchyard_oidc')).toBeUndefined();
    const answer = await me(creating, browser);
    expect(answer.status).toBe(200);
    expect(answer.body.user).toMatchObject({ id: ownerId, email: OWNER_EMAIL, hasPassword: false });
    expect(answer.body.memberships).toEqual([expect.objectContaining({ role: 'owner' })]);
    expect((await database.query('select issuer, subject, user_id from user_identity')).rows).toEqual([{ issuer: provider.issuer, subject: 'owner', user_id: ownerId }]);
    const audited = await database.query<{ details: unknown }>(`select details from audit_event where action = 'user.signed_in' and actor_id = $1`, [ownerId]);
    expect(audited.rows).toEqual([{ details: { how: 'oidc' } }]);
  });

  it('signs the same person in again as the same account: the identity is linked, nothing is duplicated', async () => {
    const accounts = await count('select count(*) from app_user');

    const { browser, callback } = await signIn(creating, 'owner');

    expect(callback.status).toBe(303);
    expect((await me(creating, browser)).body.user.id).toBe(ownerId);
    expect(await count('select count(*) from app_user')).toBe(accounts);
    expect(await count('select count(*) from user_identity where user_id = $1', [ownerId])).toBe(1);
  });

  it('refuses a tampered state and an altered state cookie with 401 oidc_failed, and the untouched answer still signs in', async () => {
    const browser = new TestBrowser();
    const callbackUrl = await toCallback(creating, 'owner', browser);
    const sealed = browser.cookie(creating.url, 'switchyard_oidc')!;
    const tampered = new URL(callbackUrl);
    tampered.searchParams.set('state', 'A'.repeat(43));

    const refusedState = await errorOf(await browser.get(tampered.href));
    browser.setCookie(creating.url, 'switchyard_oidc', `${sealed.slice(0, -4)}${sealed.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`);
    const refusedCookie = await errorOf(await browser.get(callbackUrl));
    browser.setCookie(creating.url, 'switchyard_oidc', sealed);
    const genuine = await browser.get(callbackUrl);

    expect(refusedState).toEqual({ status: 401, code: 'oidc_failed', message: expect.stringContaining('"state"') });
    expect(refusedCookie).toEqual({ status: 401, code: 'oidc_failed', message: expect.stringContaining('altered') });
    expect(genuine.status).toBe(303);
  });

  it('refuses a replayed callback: the browser spent its state, and the provider its code', async () => {
    const browser = new TestBrowser();
    const callbackUrl = await toCallback(creating, 'owner', browser);
    const sealed = browser.cookie(creating.url, 'switchyard_oidc')!;
    expect((await browser.get(callbackUrl)).status).toBe(303);

    const replayedByTheBrowser = await errorOf(await browser.get(callbackUrl));
    browser.setCookie(creating.url, 'switchyard_oidc', sealed);
    const replayedWithTheState = await errorOf(await browser.get(callbackUrl));

    expect(replayedByTheBrowser).toEqual({ status: 401, code: 'oidc_failed', message: expect.stringContaining('cookie is missing') });
    expect(replayedWithTheState).toEqual({ status: 401, code: 'oidc_failed', message: expect.stringContaining('invalid_grant') });
  });

  it('refuses an email the provider does not vouch for, even where accounts are created', async () => {
    const { browser, callback } = await signIn(creating, 'mallory');

    expect(await errorOf(callback)).toEqual({ status: 401, code: 'oidc_failed', message: expect.stringContaining('email_verified is not true') });
    expect(browser.cookie(creating.url, 'switchyard_session')).toBeUndefined();
    expect(await count('select count(*) from app_user where email = $1', ['mallory@example.com'])).toBe(0);
    expect(await count('select count(*) from user_identity where subject = $1', ['mallory'])).toBe(0);
  });

  it('refuses a person without an account where people join by invitation, and creates their account (no password) where accounts are created', async () => {
    const refused = await signIn(inviting, 'ada');
    expect(await errorOf(refused.callback)).toEqual({ status: 401, code: 'oidc_failed', message: expect.stringContaining('people join by invitation') });
    expect(await count('select count(*) from app_user where email = $1', ['ada@example.com'])).toBe(0);

    const { browser, callback } = await signIn(creating, 'ada');

    expect(callback.status).toBe(303);
    const answer = await me(creating, browser);
    expect(answer.body).toMatchObject({ user: { email: 'ada@example.com', displayName: 'Ada Lovelace', hasPassword: false }, memberships: [] });
    expect((await database.query('select user_id from user_identity where subject = $1', ['ada'])).rows).toEqual([{ user_id: answer.body.user.id }]);
  });

  it('completes on another replica a sign-in started on this one: the state is sealed with the keys they share', async () => {
    const browser = new TestBrowser();
    const callbackUrl = await toCallback(creating, 'owner', browser);
    browser.setCookie(inviting.url, 'switchyard_oidc', browser.cookie(creating.url, 'switchyard_oidc')!);

    const callback = await browser.get(callbackUrl.replace(creating.url, inviting.url));

    expect(callback.status).toBe(303);
    expect((await me(inviting, browser)).body.user.id).toBe(ownerId);
  });

  it('counts failed callbacks against the client address: past GATEWAY_AUTH_FAILURE_LIMIT it answers 429', async () => {
    const forged = `${strict.url}${OIDC_CALLBACK_PATH}?code=guessed&state=guessed`;
    const answers = [];
    for (let attempt = 0; attempt < 3; attempt += 1) answers.push((await errorOf(await fetch(forged, { redirect: 'manual' }))).code);

    expect(answers).toEqual(['oidc_failed', 'oidc_failed', 'auth_rate_limited']);
  });

  it('answers 404 oidc_unavailable on both routes when OIDC is not configured', async () => {
    for (const path of ['/api/auth/oidc/start', `${OIDC_CALLBACK_PATH}?code=any&state=any`]) {
      expect(await errorOf(await fetch(`${unset.url}${path}`, { redirect: 'manual' }))).toEqual({ status: 404, code: 'oidc_unavailable', message: expect.stringContaining('GATEWAY_OIDC_ISSUER') });
    }
  });

  it('answers 401 oidc_failed when the provider cannot be reached', async () => {
    const response = await new TestBrowser().get(`${unreachable.url}/api/auth/oidc/start`);

    expect(await errorOf(response)).toEqual({ status: 401, code: 'oidc_failed', message: expect.stringContaining('could not be reached (ECONNREFUSED)') });
  });
});
