import { isSealedSecret, SecretUnreadableError, type SecretKeyring } from '@switchyard/persistence';
import { ApiError } from '../common/api-error';
import type { McpServers } from './agent.schemas';

const ENV = 'agent env value';
const MCP = 'agent MCP secret value';

type MapValue = (value: string) => string;

const mapRecord = (record: Readonly<Record<string, string>>, map: MapValue): Record<string, string> =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));

const mapServers = (servers: McpServers, map: MapValue): McpServers =>
  Object.fromEntries(
    Object.entries(servers).map(([name, server]) => [
      name,
      { ...server, ...(server.env ? { env: mapRecord(server.env, map) } : {}), ...(server.headers ? { headers: mapRecord(server.headers, map) } : {}) },
    ]),
  );

function opener(keyring: SecretKeyring, purpose: string): MapValue {
  return (value) => {
    // A row written before values were sealed holds them in clear; the boot reseal takes them in.
    if (!isSealedSecret(value)) return value;
    try {
      return keyring.open(purpose, value);
    } catch (error) {
      if (error instanceof SecretUnreadableError) throw new ApiError('secret_unreadable', `an agent secret does not open: ${error.message}`);
      throw error;
    }
  };
}

/**
 * The agent's env values and its MCP servers' env and header values as the `agent` table keeps
 * them: each sealed on its own (names, commands and URLs stay readable), so a dump of the table
 * or a backup gives no secret away without `GATEWAY_SECRET_KEYS`.
 */
export const agentSecretsAtRest = {
  sealEnv: (keyring: SecretKeyring, env: Readonly<Record<string, string>>) => mapRecord(env, (value) => keyring.seal(ENV, value)),
  openEnv: (keyring: SecretKeyring, env: Readonly<Record<string, string>>) => mapRecord(env, opener(keyring, ENV)),
  sealServers: (keyring: SecretKeyring, servers: McpServers) => mapServers(servers, (value) => keyring.seal(MCP, value)),
  openServers: (keyring: SecretKeyring, servers: McpServers) => mapServers(servers, opener(keyring, MCP)),
  /** Whether any value is in clear or sealed under a key other than the first. */
  needResealing(keyring: SecretKeyring, env: Readonly<Record<string, string>>, servers: McpServers): boolean {
    let stale = false;
    const check: MapValue = (value) => {
      stale ||= keyring.needsResealing(value);
      return value;
    };
    mapRecord(env, check);
    mapServers(servers, check);
    return stale;
  },
};
