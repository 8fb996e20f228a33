import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface YardSettings {
  /** The gateway's base URL, e.g. http://127.0.0.1:8080. */
  readonly url: string;
  readonly token: string;
}

export class YardSettingsError extends Error {
  override readonly name = 'YardSettingsError';
}

interface StackFile {
  readonly services?: ReadonlyArray<{ readonly name: string; readonly url: string }>;
}

/**
 * Where the gateway is and which token to use: flags, then `SWITCHYARD_URL` (or an agent's
 * `SWITCHYARD_API_URL`) / `SWITCHYARD_TOKEN`,
 * then the local stack's files (`<SWITCHYARD_HOME>/stack.json` and `api-token`, written by
 * `npm start`), so `npm run yard` works against a local stack with no set-up.
 */
export function resolveYardSettings(options: { readonly flags: { readonly url?: string | undefined; readonly token?: string | undefined }; readonly env: NodeJS.ProcessEnv; readonly cwd: string }): YardSettings {
  const home = path.resolve(options.cwd, options.env['SWITCHYARD_HOME'] ?? '.switchyard');
  // SWITCHYARD_API_URL is what the daemon gives an agent, with its task token in SWITCHYARD_TOKEN.
  const url = options.flags.url ?? options.env['SWITCHYARD_URL'] ?? options.env['SWITCHYARD_API_URL'] ?? gatewayOfLocalStack(home);
  const token = options.flags.token ?? options.env['SWITCHYARD_TOKEN'] ?? readIfPresent(path.join(home, 'api-token'));
  if (!url) throw new YardSettingsError('no gateway: pass --url, set SWITCHYARD_URL (an agent gets SWITCHYARD_API_URL from a daemon given DAEMON_GATEWAY_URL), or start the local stack (npm start)');
  if (!token) throw new YardSettingsError('no API token: pass --token, set SWITCHYARD_TOKEN, or start the local stack (npm start)');
  return { url: url.replace(/\/+$/, ''), token };
}

function gatewayOfLocalStack(home: string): string | undefined {
  const text = readIfPresent(path.join(home, 'stack.json'));
  if (!text) return undefined;
  try {
    return (JSON.parse(text) as StackFile).services?.find((service) => service.name === 'gateway')?.url;
  } catch {
    return undefined;
  }
}

function readIfPresent(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || undefined : undefined;
}
