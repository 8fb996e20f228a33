import { BusSetupError } from './bus-setup.error';

// What a server whose config is made elsewhere (the NATS Helm chart) takes from ours: who the
// operator is, the system account, and the account JWTs it starts from.
const INCLUDED_KEYS = new Set(['operator', 'system_account', 'resolver_preload']);
// What that config sets itself: listener, JetStream store, the resolver and its volume, TLS.
const SERVER_OWN_KEYS = new Set(['host', 'port', 'jetstream', 'resolver', 'tls']);

const JWT_PATTERN = /eyJ[\w-]*\.[\w-]*\.[\w-]*/g;

interface ConfigEntry {
  readonly key: string;
  readonly text: string;
}

/** The top-level entries of a config rendered by `renderNatsServerConfig`, blocks kept whole. */
function topLevelEntries(config: string): ConfigEntry[] {
  const lines = config.split('\n');
  const entries: ConfigEntry[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (line.trim() === '') continue;
    const key = /^([a-z_]+)\s*[:{]/.exec(line)?.[1];
    if (!key) throw new BusSetupError('unexpected_config', `unexpected line in the rendered nats-server config: ${line.slice(0, 60)}`);
    let end = index;
    if (line.trimEnd().endsWith('{')) {
      while (end < lines.length && lines[end] !== '}') end += 1;
      if (end === lines.length) throw new BusSetupError('unexpected_config', `block ${key} of the rendered nats-server config is not closed`);
    }
    entries.push({ key, text: lines.slice(index, end + 1).join('\n') });
    index = end;
  }
  return entries;
}

/**
 * The operator part of a rendered server config, to `include` from a config made elsewhere. A key
 * this tool does not know fails loudly rather than being dropped or duplicated.
 */
export function natsOperatorInclude(serverConfig: string): string {
  const included: string[] = [];
  for (const entry of topLevelEntries(serverConfig)) {
    if (INCLUDED_KEYS.has(entry.key)) included.push(entry.text);
    else if (!SERVER_OWN_KEYS.has(entry.key)) throw new BusSetupError('unexpected_config', `the rendered nats-server config sets "${entry.key}", which bus-setup does not place`);
  }
  return `${included.join('\n')}\n`;
}

/**
 * Whether two renderings say the same apart from their JWTs, which carry their issue time. Keeping
 * the first rendering matters: the full resolver stores a preloaded account JWT unless the one it
 * holds was issued later, so a fresh preload would replace the revocations pushed since.
 */
export function sameApartFromJwts(left: string, right: string): boolean {
  return left.replace(JWT_PATTERN, '<jwt>') === right.replace(JWT_PATTERN, '<jwt>');
}
