import { request as httpRequest } from 'node:http';
import { GatewayTestKit, type TestWorkspace } from '../../gateway-test.spec-helper';

/** A POST with a body and no Content-Type at all (fetch would add `text/plain`). */
function postWithoutContentType(options: { readonly url: string; readonly token: string; readonly body: string }): Promise<{ status: number; body: { error?: { code?: string } } }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(options.url, { method: 'POST', headers: { authorization: `Bearer ${options.token}`, 'content-length': Buffer.byteLength(options.body) } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as { error?: { code?: string } } }));
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

describe('request bodies must be JSON (real NATS + Postgres)', () => {
  let kit: GatewayTestKit;
  let alpha: TestWorkspace;

  beforeAll(async () => {
    kit = await GatewayTestKit.start();
    alpha = await kit.workspace('Alpha');
  });
  afterAll(async () => {
    await kit?.stop();
  });

  const send = (method: string, path: string, body: string, contentType: string) => kit.request(method, path, { token: alpha.token, body, headers: { 'content-type': contentType } });

  it('answers a JSON body sent as text/plain with 415 unsupported_media_type naming the expected type, not a validation error', async () => {
    const response = await send('POST', '/api/tasks', JSON.stringify({ agentId: 'agent-1', prompt: 'Fix the flaky test' }), 'text/plain');
    expect(response.status).toBe(415);
    expect(response.body.error).toEqual({
      code: 'unsupported_media_type',
      message: 'the body must be sent as Content-Type: application/json (or a +json type); got text/plain',
      details: { accepted: ['application/json (or a +json type)'], received: 'text/plain' },
    });
  });

  it('refuses every other type on every JSON route before it is read, and writes nothing', async () => {
    const agents = await kit.countRows('agent', alpha.id);
    for (const [method, path, contentType] of [
      ['POST', '/api/agents', 'application/x-www-form-urlencoded'],
      ['PATCH', '/api/agents/some-agent', 'text/plain; charset=utf-8'],
      ['POST', '/api/tokens', 'multipart/form-data; boundary=x'],
      ['POST', '/api/issues', 'text/csv'],
    ] as const) {
      const response = await send(method, path, contentType === 'application/x-www-form-urlencoded' ? 'name=Fixer&runtimeId=r' : '{"name":"Fixer"}', contentType);
      expect({ route: `${method} ${path}`, status: response.status, code: response.body.error?.code }).toEqual({ route: `${method} ${path}`, status: 415, code: 'unsupported_media_type' });
    }
    expect(await kit.countRows('agent', alpha.id)).toBe(agents);
    const untyped = await postWithoutContentType({ url: `${kit.gateway.url}/api/issues`, token: alpha.token, body: '{"title":"Untyped"}' });
    expect({ status: untyped.status, code: untyped.body.error?.code }).toEqual({ status: 415, code: 'unsupported_media_type' });
    expect(await kit.countRows('issue', alpha.id)).toBe(0);
  });

  it('reads application/json with parameters and +json types, and lets bodiless requests through', async () => {
    const created = await send('POST', '/api/tokens', JSON.stringify({ name: 'ci' }), 'application/json; charset=utf-8');
    expect(created.status).toBe(201);
    const merged = await send('POST', '/api/tokens', JSON.stringify({ name: 'ci-2' }), 'application/vnd.switchyard+json');
    expect({ status: merged.status, name: merged.body.name }).toEqual({ status: 201, name: 'ci-2' });
    // No body (Content-Length: 0) is not a body of the wrong type: the route's own validation answers.
    const bodiless = await kit.request('POST', '/api/tasks', { token: alpha.token, headers: { 'content-type': 'text/plain', 'content-length': '0' } });
    expect({ status: bodiless.status, code: bodiless.body.error.code }).toEqual({ status: 400, code: 'validation_failed' });
  });

  it('checks the body type before the API token, which it reveals nothing about', async () => {
    expect((await kit.request('POST', '/api/tasks', { body: '{}', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await kit.request('POST', '/api/tasks', { body: '{}' })).status).toBe(401);
  });
});
