import { existsSync } from 'node:fs';
import path from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';

/** Paths the gateway's own routes answer: never the web app's. */
const GATEWAY_PATHS = /^\/(api|auth|healthz|readyz|metrics)(\/|$)/;

/**
 * What the browser may do on the web app's pages: scripts, styles and connections of this origin
 * only (the API and the live WebSocket are same-origin), no framing by other sites.
 */
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

/** What the fallback reads of Express's request and response. */
interface PageRequest {
  readonly method: string;
  readonly path: string;
}
interface PageResponse {
  set(headers: Record<string, string>): PageResponse;
  status(code: number): PageResponse;
  type(type: string): PageResponse;
  send(body: string): unknown;
  sendFile(file: string): unknown;
}

/** Where the built web app is (`npm run build` puts it in dist/apps/web, beside this service's build). */
export function defaultWebRoot(): string {
  return path.resolve(__dirname, '../../../../../apps/web');
}

/**
 * Serves the web app at `/` on the API's origin: its hashed assets with a long cache, and
 * `index.html` (never cached) for every other GET outside the gateway's own paths, so the app's
 * routes (`/issues/…`, `/chat`, `/invitations/…`) load on a reload or a pasted link. Without a
 * build, those paths answer a note saying how to make one.
 */
export function serveWebApp(app: NestExpressApplication, webRoot: string): void {
  const index = path.join(webRoot, 'index.html');
  app.useStaticAssets(path.join(webRoot, 'assets'), { prefix: '/assets', immutable: true, maxAge: '365d', index: false, fallthrough: false });
  app.use((request: PageRequest, response: PageResponse, next: () => void) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || GATEWAY_PATHS.test(request.path)) {
      next();
      return;
    }
    response.set({ ...PAGE_HEADERS, 'cache-control': 'no-cache' });
    if (!existsSync(index)) {
      response.status(503).type('html').send('<!doctype html><title>Switchyard</title><p>The web app is not built: run <code>npm run build</code> (or <code>npm start</code>).</p>');
      return;
    }
    response.sendFile(index);
  });
}
