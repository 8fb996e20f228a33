import { readFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = path.dirname(new URL(import.meta.url).pathname);
const workspaceRoot = path.resolve(root, '../..');

/** The local stack's gateway (`npm start` writes where it listens), for the dev server's proxy. */
function localGatewayUrl(): string {
  if (process.env['SWITCHYARD_GATEWAY_URL']) return process.env['SWITCHYARD_GATEWAY_URL'];
  try {
    const stack = JSON.parse(readFileSync(path.join(process.env['SWITCHYARD_HOME'] ?? path.join(workspaceRoot, '.switchyard'), 'stack.json'), 'utf8')) as { services: Array<{ name: string; url: string }> };
    return stack.services.find((service) => service.name === 'gateway')?.url ?? 'http://127.0.0.1:8080';
  } catch {
    return 'http://127.0.0.1:8080';
  }
}

const gateway = localGatewayUrl();
// The gateway accepts a session's requests only from its own origin: the proxy speaks as it.
const asGateway = { target: gateway, changeOrigin: true, configure: (proxy: { on(event: 'proxyReq' | 'proxyReqWs', listener: (request: { setHeader(name: string, value: string): void }) => void): void }) => {
  proxy.on('proxyReq', (request) => request.setHeader('origin', gateway));
  proxy.on('proxyReqWs', (request) => request.setHeader('origin', gateway));
} };

/**
 * The team's web app: built to static files the gateway serves at `/` (same origin as the API, so
 * the session cookie and CSRF token just work); `npm run dev:web` serves it with hot reload and
 * proxies the API to the local stack.
 */
export default defineConfig({
  root,
  plugins: [react()],
  build: {
    outDir: path.join(workspaceRoot, 'dist/apps/web'),
    emptyOutDir: true,
    sourcemap: true,
    // Sizes of every chunk, gzipped too, are printed by the build (and kept in dist/apps/web/.vite/manifest.json).
    reportCompressedSize: true,
    manifest: true,
  },
  server: {
    port: Number(process.env['SWITCHYARD_WEB_DEV_PORT'] ?? 5173),
    proxy: { '/api/live': { ...asGateway, ws: true }, '/api': asGateway, '/auth': asGateway },
  },
});
