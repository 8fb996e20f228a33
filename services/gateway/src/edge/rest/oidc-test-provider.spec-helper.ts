import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'cookie';
import Provider, { type Account, type Configuration } from 'oidc-provider';

/** A person the test provider knows: their login (also their subject) and what it says of them. */
export interface TestProviderAccount {
  readonly login: string;
  readonly email: string;
  readonly emailVerified: boolean;
  readonly name: string;
}

export interface TestIdentityProvider {
  /** `http://127.0.0.1:<port>`: what GATEWAY_OIDC_ISSUER names. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Starts answering, with one client allowed to return to these redirect URIs (known once the gateways listen). */
  serve(redirectUris: readonly string[]): void;
  stop(): Promise<void>;
}

/**
 * A real OpenID Connect provider (panva's `oidc-provider`) on 127.0.0.1 and a random port: one
 * confidential client, the accounts given, PKCE required, its development login and consent pages
 * (any password is accepted: the test proves the relying party, not the provider's login). It
 * listens before it knows the gateways' callback URLs, so they can be configured with its issuer.
 */
export async function startTestIdentityProvider(accounts: readonly TestProviderAccount[]): Promise<TestIdentityProvider> {
  let handler: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const server = createServer((request, response) => {
    if (handler) return handler(request, response);
    response.statusCode = 503;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'switchyard-test';
  const clientSecret = 'a-test-client-secret-of-the-local-provider';
  const byLogin = new Map(accounts.map((account) => [account.login, account]));
  return {
    issuer,
    clientId,
    clientSecret,
    serve(redirectUris) {
      const configuration: Configuration = {
        clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [...redirectUris], grant_types: ['authorization_code'], response_types: ['code'] }],
        findAccount: (_context, subject): Account | undefined => {
          const account = byLogin.get(subject);
          return account && { accountId: subject, claims: () => ({ sub: subject, email: account.email, email_verified: account.emailVerified, name: account.name }) };
        },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        pkce: { required: () => true },
        cookies: { keys: ['the-test-provider-cookie-key'] },
        // Its own signing key and lifetimes, so that it does not warn about its development defaults.
        jwks: { keys: [{ ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), alg: 'RS256', use: 'sig', kid: 'test-key' }] },
        ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
        features: { devInteractions: { enabled: true } },
      };
      const answer = new Provider(issuer, configuration).callback();
      // Koa answers its own errors: the promise only says when the response is done.
      handler = (request, response) => void answer(request, response);
    },
    stop: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** A port of 127.0.0.1 nothing listens on (it was free a moment ago): a provider that is down. */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * What a browser does that the test needs: it follows nothing by itself (every redirect is a step
 * the test sees) and keeps cookies per origin (a browser would share them across ports of one host;
 * keeping them apart only makes the test stricter), dropping those set to expire.
 */
export class TestBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  async get(url: string): Promise<Response> {
    return this.send(url, { method: 'GET' });
  }

  async postForm(url: string, fields: Readonly<Record<string, string>>): Promise<Response> {
    return this.send(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  }

  /** The cookie this browser holds for the origin, if any. */
  cookie(origin: string, name: string): string | undefined {
    return this.jars.get(origin)?.get(name);
  }

  setCookie(origin: string, name: string, value: string): void {
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    jar.set(name, value);
    this.jars.set(origin, jar);
  }

  /** The `Cookie` header it sends to the origin. */
  cookieHeader(origin: string): string {
    return [...(this.jars.get(origin) ?? new Map<string, string>())].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('; ');
  }

  private async send(url: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<Response> {
    const { origin } = new URL(url);
    const cookie = this.cookieHeader(origin);
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, ...(cookie ? { cookie } : {}) } });
    for (const line of response.headers.getSetCookie()) this.keep(origin, line);
    return response;
  }

  private keep(origin: string, line: string): void {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const [name, value] = Object.entries(parse(pair))[0] ?? [];
    if (name === undefined) return;
    const expired = attributes.some((attribute) => /^max-age=0$/i.test(attribute) || (/^expires=/i.test(attribute) && Date.parse(attribute.slice('expires='.length)) <= Date.now()));
    if (expired || value === undefined || value === '') this.jars.get(origin)?.delete(name);
    else this.setCookie(origin, name, value);
  }
}

/**
 * From the gateway's start URL through the provider's login and consent pages, as a person at a
 * browser would go: follows each redirect, fills each form (the login with `login`), and stops at
 * the URL the provider sends the browser back to (the gateway's callback), without opening it.
 */
export async function throughTheProvider(options: { readonly browser: TestBrowser; readonly startUrl: string; readonly login: string; readonly callbackPrefix: string }): Promise<string> {
  let response = await options.browser.get(options.startUrl);
  let url = options.startUrl;
  for (let step = 0; step < 20; step += 1) {
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location') ?? '', url).href;
      if (url.startsWith(options.callbackPrefix)) return url;
      response = await options.browser.get(url);
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (response.status !== 200 || action === undefined || prompt === undefined) throw new Error(`unexpected page at ${url}: HTTP ${response.status} ${page.slice(0, 300)}`);
    const fields: Record<string, string> = prompt === 'login' ? { prompt, login: options.login, password: 'any password' } : { prompt };
    url = new URL(action.replace(/&amp;/g, '&'), url).href;
    response = await options.browser.postForm(url, fields);
  }
  throw new Error(`the provider did not send the browser back within 20 steps (last at ${url})`);
}
