import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GatewayTestKit } from '../../gateway-test.spec-helper';

/**
 * The web app on the API's origin: its pages (every app route answers index.html, never cached,
 * with a strict content security policy), its hashed assets (cached for long; a missing one is a
 * 404, not the page), and the gateway's own paths left alone.
 */
describe('the gateway serves the web app at / (real NATS + Postgres)', () => {
  let kit: GatewayTestKit;
  const webRoot = mkdtempSync(path.join(tmpdir(), 'switchyard-web-'));

  beforeAll(async () => {
    mkdirSync(path.join(webRoot, 'assets'));
    writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Switchyard</title><div id="root"></div>');
    writeFileSync(path.join(webRoot, 'assets', 'app-abc123.js'), 'console.info("app");');
    kit = await GatewayTestKit.start({ GATEWAY_WEB_ROOT: webRoot });
  });
  afterAll(async () => {
    await kit?.stop();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it('answers the app’s routes with index.html under a strict CSP, and its assets with a long cache', async () => {
    for (const route of ['/', '/issues/some-issue', '/chat', '/invitations/syi_token']) {
      const page = await fetch(`${kit.gateway.url}${route}`);
      expect({ route, status: page.status, body: await page.text() }).toEqual({ route, status: 200, body: expect.stringContaining('<div id="root">') });
      expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'; script-src 'self'/);
      expect([page.headers.get('cache-control'), page.headers.get('x-frame-options')]).toEqual(['no-cache', 'DENY']);
    }
    const asset = await fetch(`${kit.gateway.url}/assets/app-abc123.js`);
    expect([asset.status, await asset.text(), asset.headers.get('cache-control')]).toEqual([200, 'console.info("app");', 'public, max-age=31536000, immutable']);
    expect((await fetch(`${kit.gateway.url}/assets/missing.js`)).status).toBe(404);
  });

  it('leaves the gateway’s own paths alone: the API’s JSON errors, health, the docs', async () => {
    const unknownApi = await fetch(`${kit.gateway.url}/api/nothing-here`, { headers: { authorization: `Bearer ${kit.bootstrapToken}` } });
    expect([unknownApi.status, ((await unknownApi.json()) as { error: { code: string } }).error.code]).toEqual([404, 'not_found']);
    expect((await fetch(`${kit.gateway.url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${kit.gateway.url}/api/docs`)).text()).toContain('swagger');
    const link = await fetch(`${kit.gateway.url}/auth/link/syl_unknown`, { redirect: 'manual' });
    expect(link.status).toBe(401);
  });
});
