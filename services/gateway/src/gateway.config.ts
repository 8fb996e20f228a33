import { z } from 'zod';
import { secretKeysSettingSchema } from '@switchyard/persistence';
import { databaseServiceConfigSchema } from '@switchyard/service-kit';

const milliseconds = (defaultValue: number) => z.coerce.number().int('must be an integer').positive('must be positive').default(defaultValue);
const count = (defaultValue: number) => z.coerce.number().int('must be an integer').positive('must be positive').default(defaultValue);

export const gatewayConfigSchema = databaseServiceConfigSchema(8080).extend({
  /**
   * Ensures, at boot, a workspace `default` and this API token in it: how a fresh install (and the
   * local stack) gets its first credential. Leave unset in production once tokens exist.
   */
  GATEWAY_BOOTSTRAP_TOKEN: z.string().regex(/^sy_[A-Za-z0-9_-]{20,200}$/, 'must look like an API token: sy_ followed by 20+ url-safe characters').optional(),
  /**
   * A runtime whose last heartbeat (or registration) is older than this is shown offline
   * (`heartbeat_missed`), even without a `runtime.offline` event: a killed daemon sends none.
   */
  GATEWAY_RUNTIME_OFFLINE_AFTER_MS: milliseconds(20_000),
  /** How long one command to the queue may take before it is retried (same request id), then answered 503. */
  GATEWAY_QUEUE_TIMEOUT_MS: milliseconds(5_000),
  /**
   * How often the autopilot scheduler looks for due minutes (every replica runs it; a unique
   * trigger key makes each minute fire once). 0 turns the scheduler off in this replica.
   */
  GATEWAY_AUTOPILOT_TICK_MS: z.coerce.number().int('must be an integer').min(0, 'must be 0 (off) or positive').default(20_000),
  /**
   * Invalid API tokens (unknown, revoked) one client address may present, over REST and the
   * WebSocket together, within GATEWAY_AUTH_FAILURE_WINDOW_MS. Past them every request of that
   * address that brings a token is answered 429 with Retry-After, until the oldest failure leaves
   * the window. Per replica; behind a proxy the proxy is the address.
   */
  GATEWAY_AUTH_FAILURE_LIMIT: count(10),
  GATEWAY_AUTH_FAILURE_WINDOW_MS: milliseconds(60_000),
  /**
   * How often the tokens of open WebSockets are checked (one query for all of them), so a socket
   * whose token was revoked through another replica is closed too; revocations made here close
   * at once.
   */
  GATEWAY_LIVE_TOKEN_RECHECK_MS: milliseconds(2_000),
  /**
   * The enrollment authority (`npm start` writes it under `.switchyard/bus/`): the keys that sign
   * daemon users and revocations, and a system-account user that pushes them to NATS. Without it
   * daemons cannot enroll (503 `enrollment_unavailable`) and revocation cannot reach NATS.
   */
  GATEWAY_ENROLLMENT_AUTHORITY_FILE: z.string().trim().min(1).optional(),
  /** How long a daemon enrollment token stays usable; each is good for one enrollment. */
  GATEWAY_ENROLLMENT_TOKEN_TTL_MS: milliseconds(60 * 60_000),
  /**
   * Keys sealing agents' env and MCP secret values at rest (comma-separated base64url 32-byte keys;
   * the first seals, all open, and the gateway seals old values again at boot: see
   * docs/architecture/security.md). Every replica needs the same. Unset: a random key per process,
   * with a warning, and agents' secrets do not survive a restart.
   */
  GATEWAY_SECRET_KEYS: secretKeysSettingSchema,
  /**
   * Where people reach this gateway (`https://switchyard.example.com`): invitation and sign-in links
   * are made from it, and browser requests from its origin pass the CSRF origin check (the request's
   * own Host always does). Unset: links are made from the request's Host.
   */
  GATEWAY_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  /** The built web app the gateway serves at `/` (default: dist/apps/web beside this build; `npm run build` makes it). */
  GATEWAY_WEB_ROOT: z.string().trim().min(1).optional(),
  /** How long a browser session lasts from sign-in. */
  GATEWAY_SESSION_TTL_MS: milliseconds(7 * 24 * 60 * 60_000),
  /**
   * The Secure flag of session cookies: `auto` sets it when the request came over HTTPS (directly,
   * or `X-Forwarded-Proto: https` from the proxy in front), `true` always, `false` never.
   */
  GATEWAY_COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  /** How many workspaces one person may own (create); a bound on what one account can take. */
  GATEWAY_MAX_OWNED_WORKSPACES: count(20),
  /**
   * The account GATEWAY_BOOTSTRAP_TOKEN belongs to: the first owner of workspace `default`. It has
   * no password; `npm run admin -- sign-in-link` (or `npm start`) prints a one-time link for it.
   */
  GATEWAY_BOOTSTRAP_OWNER_EMAIL: z.email('must be an email address').default('owner@switchyard.local'),
  /** How long a sign-in link or password-reset code from the admin command stays usable. */
  GATEWAY_ONE_TIME_CODE_TTL_MS: milliseconds(30 * 60_000),
  /** OpenID Connect sign-in (docs/architecture/people.md): all three set, or none. */
  GATEWAY_OIDC_ISSUER: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  GATEWAY_OIDC_CLIENT_ID: z.string().min(1).optional(),
  GATEWAY_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  /** A verified email the provider vouches for, but no account has: create one (true), or refuse (false: people join by invitation). */
  GATEWAY_OIDC_CREATE_ACCOUNTS: z.enum(['true', 'false']).default('false').transform((value) => value === 'true'),
}).refine((config) => [config.GATEWAY_OIDC_ISSUER, config.GATEWAY_OIDC_CLIENT_ID, config.GATEWAY_OIDC_CLIENT_SECRET].every((value) => value === undefined) || [config.GATEWAY_OIDC_ISSUER, config.GATEWAY_OIDC_CLIENT_ID, config.GATEWAY_OIDC_CLIENT_SECRET].every((value) => value !== undefined), {
  path: ['GATEWAY_OIDC_ISSUER'],
  message: 'set GATEWAY_OIDC_ISSUER, GATEWAY_OIDC_CLIENT_ID and GATEWAY_OIDC_CLIENT_SECRET together',
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
