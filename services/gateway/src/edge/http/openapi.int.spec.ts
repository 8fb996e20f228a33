import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { GatewayTestKit, pluck } from '../../gateway-test.spec-helper';
import { REST_MODULES } from '../rest/rest.modules';

interface Route {
  readonly method: string;
  /** OpenAPI style: `/api/tasks/{id}`. */
  readonly path: string;
}

/** Every route the REST controllers declare, read from Nest's own routing metadata. */
function declaredRoutes(): Route[] {
  const routes: Route[] = [];
  for (const module of REST_MODULES) {
    const controllers = (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) ?? []) as Array<new (...args: never[]) => object>;
    for (const controller of controllers) {
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (method === undefined || path === undefined) continue;
        const joined = `/${[base, path].map((part) => part.replace(/^\/|\/$/g, '')).filter(Boolean).join('/')}`;
        routes.push({ method: RequestMethod[method].toLowerCase(), path: joined.replace(/:(\w+)/g, '{$1}') });
      }
    }
  }
  return routes.sort((left, right) => `${left.path} ${left.method}`.localeCompare(`${right.path} ${right.method}`));
}

describe('OpenAPI document (real NATS + Postgres)', () => {
  let kit: GatewayTestKit;

  beforeAll(async () => {
    kit = await GatewayTestKit.start();
  });
  afterAll(async () => {
    await kit?.stop();
  });

  it('lists every REST route, each with bearer auth, a success response and the 401', async () => {
    const response = await kit.request('GET', '/api/docs-json');
    expect(response.status).toBe(200);
    const document = response.body as { openapi: string; paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>> };
    expect(document.openapi).toMatch(/^3\./);
    const documented = Object.entries(document.paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => ({ method, path })))
      .sort((left, right) => `${left.path} ${left.method}`.localeCompare(`${right.path} ${right.method}`));
    const declared = declaredRoutes();
    expect(declared.length).toBeGreaterThanOrEqual(25);
    expect(documented).toEqual(declared);
    for (const { method, path } of declared) {
      const operation = document.paths[path]![method]!;
      expect({ route: `${method} ${path}`, security: operation.security }).toEqual({ route: `${method} ${path}`, security: [{ 'api-token': [] }] });
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

  it('refuses every REST route without a token', async () => {
    for (const { method, path } of declaredRoutes()) {
      const response = await kit.request(method.toUpperCase(), path.replace(/\{\w+\}/g, 'some-id'), method === 'get' || method === 'delete' ? {} : { body: {} });
      expect({ route: `${method} ${path}`, status: response.status, code: response.body?.error?.code }).toEqual({ route: `${method} ${path}`, status: 401, code: 'unauthenticated' });
    }
  });
});
