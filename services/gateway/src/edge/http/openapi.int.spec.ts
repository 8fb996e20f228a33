import { GatewayTestKit, pluck } from '../../gateway-test.spec-helper';
import { declaredRoutes } from '../rest/declared-routes.spec-helper';

describe('OpenAPI document (real NATS + Postgres)', () => {
  let kit: GatewayTestKit;

  beforeAll(async () => {
    kit = await GatewayTestKit.start();
  });
  afterAll(async () => {
    await kit?.stop();
  });

  it('lists every REST route, each with a success response, and each but the public ones with bearer auth and the 401', async () => {
    const response = await kit.request('GET', '/api/docs-json');
    expect(response.status).toBe(200);
    const document = response.body as { openapi: string; paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>> };
    expect(document.openapi).toMatch(/^3\./);
    const documented = Object.entries(document.paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => ({ method, path })))
      .sort((left, right) => `${left.path} ${left.method}`.localeCompare(`${right.path} ${right.method}`));
    const declared = declaredRoutes();
    expect(declared.length).toBeGreaterThanOrEqual(25);
    expect(documented).toEqual(declared.map(({ method, path }) => ({ method, path })));
    for (const { method, path, requirement } of declared.filter((route) => route.publicBecause === undefined)) {
      const operation = document.paths[path]![method]!;
      const scheme = requirement?.kind === 'signed_in' && requirement.sessionOnly ? 'session' : 'api-token';
      expect({ route: `${method} ${path}`, security: operation.security }).toEqual({ route: `${method} ${path}`, security: [{ [scheme]: [] }] });
      const statuses = Object.keys(operation.responses);
      expect({ route: `${method} ${path}`, has401: statuses.includes('401'), hasSuccess: statuses.some((status) => status.startsWith('2')) }).toEqual({
        route: `${method} ${path}`,
        has401: true,
        hasSuccess: true,
      });
    }
  });

  it('documents request bodies from the same zod schemas that validate them', async () => {
    const document = (await kit.request('GET', '/api/docs-json')).body;
    const body = document.paths['/api/runtime-profiles'].post.requestBody.content['application/json'].schema;
    expect(body.properties.protocolFamily.enum).toContain('claude-stream-json');
    expect(body.additionalProperties).toBe(false);
    expect(pluck(document.paths['/api/tasks'].get.parameters, 'name').sort()).toEqual(['agentId', 'cursor', 'limit', 'runtimeId', 'status']);
    // Every route that reads a JSON body documents the 415 of a body of another type.
    expect(document.paths['/api/tasks'].post.responses['415'].description).toContain('unsupported_media_type');
    expect(document.paths['/api/tasks'].get.responses['415']).toBeUndefined();
  });

  it('serves the UI at /api/docs', async () => {
    const response = await fetch(`${kit.gateway.url}/api/docs`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('swagger');
  });

  it('refuses every REST route but the public ones without a credential', async () => {
    for (const { method, path } of declaredRoutes().filter((route) => route.publicBecause === undefined)) {
      const response = await kit.request(method.toUpperCase(), path.replace(/\{\w+\}/g, 'some-id'), method === 'get' || method === 'delete' ? {} : { body: {} });
      expect({ route: `${method} ${path}`, status: response.status, code: response.body?.error?.code }).toEqual({ route: `${method} ${path}`, status: 401, code: 'unauthenticated' });
    }
  });
});
