import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GitHttpServerOptions {
  /** Folder holding the bare repositories served, each at `/<name>.git`. */
  root: string;
  /** The one HTTP basic credential accepted; every request without it gets a 401. */
  username: string;
  password: string;
}

export interface GitHttpServer {
  /** `http://127.0.0.1:<port>`; a repository is at `${url}/<name>.git`. */
  readonly url: string;
  /** Requests answered so far with 401, missing and wrong credentials alike. */
  readonly refusals: () => number;
  close(): Promise<void>;
}

/**
 * A real git smart-HTTP remote for tests: every request runs `git http-backend` as a CGI script,
 * behind HTTP basic auth, on 127.0.0.1 and a free port. Clones, fetches and pushes go through git's
 * own transport code, so a wrong credential fails the way a forge's refusal does.
 */
export async function startGitHttpServer(options: GitHttpServerOptions): Promise<GitHttpServer> {
  const expected = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;
  let refusals = 0;
  const server = createServer((request, response) => {
    if (request.headers.authorization !== expected) {
      refusals += 1;
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="switchyard-test"', 'Content-Type': 'text/plain' });
      response.end('authentication required\n');
      request.resume();
      return;
    }
    runHttpBackend({ root: options.root, username: options.username, request, response });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refusals: () => refusals,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function runHttpBackend(options: { root: string; username: string; request: IncomingMessage; response: ServerResponse }): void {
  const { request, response } = options;
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const header = (name: string): string => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(', ') : (value ?? '');
  };
  const child = spawn('git', ['http-backend'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      GIT_PROJECT_ROOT: options.root,
      GIT_HTTP_EXPORT_ALL: '1',
      // With an authenticated user http-backend also serves pushes, so tests can update the origin over http.
      REMOTE_USER: options.username,
      REMOTE_ADDR: '127.0.0.1',
      REQUEST_METHOD: request.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: header('content-type'),
      HTTP_CONTENT_ENCODING: header('content-encoding'),
      GIT_PROTOCOL: header('git-protocol'),
      SERVER_PROTOCOL: 'HTTP/1.1',
    },
  });
  request.pipe(child.stdin);
  child.stdin.on('error', () => undefined);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  forwardCgiResponse({ stdout: child.stdout, response, stderr: () => stderr });
  child.on('error', (error) => {
    if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain' });
    response.end(`git http-backend failed to start: ${error.message}\n`);
  });
}

/** Parses the CGI header block (`Status:` and the rest) off git's stdout, then streams the body. */
function forwardCgiResponse(options: { stdout: NodeJS.ReadableStream; response: ServerResponse; stderr: () => string }): void {
  const { stdout, response } = options;
  let head = Buffer.alloc(0);
  let headersDone = false;
  stdout.on('data', (chunk: Buffer) => {
    if (headersDone) {
      response.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const separator = head.indexOf('\r\n\r\n');
    if (separator === -1) return;
    headersDone = true;
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of head.subarray(0, separator).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon === -1) continue;
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else headers[name] = value;
    }
    response.writeHead(status, headers);
    response.write(head.subarray(separator + 4));
  });
  stdout.on('end', () => {
    if (!headersDone) {
      response.writeHead(502, { 'Content-Type': 'text/plain' });
      response.end(`git http-backend gave no response: ${options.stderr()}\n`);
      return;
    }
    response.end();
  });
}
