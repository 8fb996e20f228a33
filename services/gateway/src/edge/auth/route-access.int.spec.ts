import { GatewayTestKit, type TestWorkspace } from '../../gateway-test.spec-helper';
import { sessionRequest, signIn, signUpMember, type TestMember } from '../../people-test.spec-helper';
import { PERMISSIONS, ROLES, roleBelow, type Permission, type Role } from '../../workspace/common/access.matrix';
import { ALL_HTTP_MODULES, declaredRoutes, type DeclaredRoute } from '../rest/declared-routes.spec-helper';

/** A path of the route with every parameter filled with an id nothing has. */
const concrete = (route: DeclaredRoute): string => route.path.replace(/\{\w+\}/g, 'nothing-here');
const bodyOf = (route: DeclaredRoute): unknown => (route.method === 'get' || route.method === 'delete' ? undefined : {});
const refusedByAccess = (response: { status: number; body?: { error?: { code?: string } } }): boolean =>
  response.status === 401 || ['forbidden_role', 'token_scope_insufficient', 'csrf_failed', 'not_a_member', 'unauthenticated'].includes(response.body?.error?.code ?? '');

/**
 * Every route of the REST API against the role matrix, on the real gateway: for each route, the
 * lowest role its permission names gets past access control (whatever the handler then says of an
 * id that does not exist or an empty body), and the role just below is refused 403
 * `forbidden_role`. A permission every role holds is refused instead to a token whose scopes leave it
 * out (403 `token_scope_insufficient`). The list of routes is read from the controllers themselves,
 * so a route added without a declaration fails here.
 */
describe('every route is checked against the role matrix (real NATS + Postgres)', () => {
  let kit: GatewayTestKit;
  let workspace: TestWorkspace;
  const members = {} as Record<Role, TestMember>;
  let narrowToken: string;

  beforeAll(async () => {
    kit = await GatewayTestKit.start();
    workspace = await kit.workspace('Roles');
    for (const role of ROLES) members[role] = await signUpMember(kit, workspace, role);
    // A viewer's token that may only read the workspace itself.
    narrowToken = (await signUpMember(kit, workspace, 'viewer', { scopes: ['workspace:read'] })).token;
  }, 120_000);
  afterAll(async () => {
    await kit?.stop();
  });

  const call = (route: DeclaredRoute, token: string) => kit.request(route.method.toUpperCase(), concrete(route), { token, ...(bodyOf(route) === undefined ? {} : { body: bodyOf(route) }) });

  it('declares, for every route, exactly one of a permission, the signed-in person, or why it is public', () => {
    const routes = declaredRoutes(ALL_HTTP_MODULES);
    expect(routes.length).toBeGreaterThan(80);
    const undeclared = routes.filter((route) => (route.requirement === undefined) === (route.publicBecause === undefined)).map((route) => `${route.method} ${route.path}`);
    expect(undeclared).toEqual([]);
    expect(routes.filter((route) => route.publicBecause !== undefined).map((route) => `${route.method} ${route.path}`)).toEqual([
      'get /api/auth/oidc/callback',
      'get /api/auth/oidc/start',
      'post /api/auth/password-reset',
      'post /api/auth/sign-in',
      'post /api/autopilots/{id}/webhook',
      'post /api/daemons/enroll',
      'post /api/invitations/{token}/accept',
      'get /auth/link/{code}',
    ]);
  });

  it('lets the lowest role of each permission through and refuses the role below with 403 forbidden_role', async () => {
    const outcomes: string[] = [];
    for (const route of declaredRoutes()) {
      if (route.requirement?.kind !== 'permission') continue;
      const { permission } = route.requirement;
      const lowest = PERMISSIONS[permission].lowestRole;
      const allowed = await call(route, members[lowest].token);
      if (refusedByAccess(allowed)) outcomes.push(`${route.method} ${route.path}: ${lowest} refused (${allowed.status} ${allowed.body?.error?.code})`);
      const below = roleBelow(lowest);
      if (below === undefined) continue;
      const refused = await call(route, members[below].token);
      if (refused.status !== 403 || refused.body?.error?.code !== 'forbidden_role') outcomes.push(`${route.method} ${route.path}: ${below} got ${refused.status} ${refused.body?.error?.code}`);
      else expect(refused.body.error.details).toEqual({ permission, lowestRole: lowest, role: below });
    }
    expect(outcomes).toEqual([]);
  });

  it('refuses a route every role may use to a token whose scopes leave its permission out (403 token_scope_insufficient), and lets the scope it has through', async () => {
    const outcomes: string[] = [];
    const everyone = declaredRoutes().filter((route) => route.requirement?.kind === 'permission' && PERMISSIONS[route.requirement.permission].lowestRole === 'viewer');
    expect(everyone.length).toBeGreaterThan(20);
    for (const route of everyone) {
      const permission = (route.requirement as { permission: Permission }).permission;
      const response = await call(route, narrowToken);
      const expected = permission === 'workspace:read' ? 'allowed' : 'token_scope_insufficient';
      const got = refusedByAccess(response) ? (response.body?.error?.code ?? String(response.status)) : 'allowed';
      if (got !== expected) outcomes.push(`${route.method} ${route.path}: ${got}, expected ${expected}`);
    }
    expect(outcomes).toEqual([]);
  });

  it('serves the signed-in person’s routes to a session (an unscoped token where not session-only) and never to a scoped token', async () => {
    const outcomes: string[] = [];
    for (const route of declaredRoutes()) {
      if (route.requirement?.kind !== 'signed_in') continue;
      // A session of its own per route: one of them signs out.
      const session = await signIn(kit, members.viewer.email);
      const bySession = await sessionRequest(kit, session, route.method.toUpperCase(), concrete(route), { body: bodyOf(route) });
      if (refusedByAccess(bySession)) outcomes.push(`${route.method} ${route.path}: session refused (${bySession.status} ${bySession.body?.error?.code})`);
      const byToken = await call(route, members.viewer.token);
      const tokenAllowed = !route.requirement.sessionOnly;
      if (refusedByAccess(byToken) === tokenAllowed) outcomes.push(`${route.method} ${route.path}: unscoped token ${tokenAllowed ? 'refused' : 'allowed'} (${byToken.status})`);
      const byNarrow = await call(route, narrowToken);
      if (byNarrow.body?.error?.code !== 'token_scope_insufficient') outcomes.push(`${route.method} ${route.path}: scoped token got ${byNarrow.status} ${byNarrow.body?.error?.code}`);
    }
    expect(outcomes).toEqual([]);
  });
});
