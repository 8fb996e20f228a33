import type { AgentSnapshot } from './agent-snapshot.schema';
import type { JsonValue } from './unified-message.schema';

/**
 * Where a secret of an agent snapshot stood once its value was taken out: `secret-ref:<bundle>/<n>`.
 * Every env value, every value of an MCP server's `env` and `headers` (at any depth: each CLI
 * family nests servers its own way) and every repository credential's secret is a secret; names,
 * commands, arguments and URLs are not.
 */
export const SECRET_REF_PREFIX = 'secret-ref:';

/** Secret values by the reference that replaced them. */
export type AgentSecretValues = Record<string, string>;

export interface SeparatedAgentSecrets {
  /** The snapshot with each secret value replaced by its reference. */
  readonly agent: AgentSnapshot;
  readonly values: AgentSecretValues;
}

export function isSecretRef(value: string): boolean {
  return value.startsWith(SECRET_REF_PREFIX);
}

/** The bundle a reference points into (the part between the prefix and the last `/`). */
export function bundleIdOfSecretRef(ref: string): string {
  return ref.slice(SECRET_REF_PREFIX.length, ref.lastIndexOf('/'));
}

type MapSecret = (value: string) => string;

const mapValues = (record: Record<string, string>, map: MapSecret): Record<string, string> =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));

function mapMcpSecrets(config: JsonValue, map: MapSecret): JsonValue {
  if (config === null || typeof config !== 'object') return config;
  if (Array.isArray(config)) return config.map((entry) => mapMcpSecrets(entry, map));
  return Object.fromEntries(
    Object.entries(config).map(([key, value]) => {
      const secretMap = (key === 'env' || key === 'headers') && value !== null && typeof value === 'object' && !Array.isArray(value);
      if (!secretMap) return [key, mapMcpSecrets(value, map)];
      return [key, Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, typeof entry === 'string' ? map(entry) : entry]))];
    }),
  );
}

function mapAgentSecrets(agent: AgentSnapshot, map: MapSecret): AgentSnapshot {
  return {
    ...agent,
    env: mapValues(agent.env, map),
    mcpConfig: agent.mcpConfig === null ? null : mapMcpSecrets(agent.mcpConfig, map),
    // Older snapshots (before repositories) may lack the list when read without their schema.
    repositories: (agent.repositories ?? []).map((repository) =>
      repository.credential === null ? repository : { ...repository, credential: { ...repository.credential, secret: map(repository.credential.secret) } },
    ),
  };
}

/**
 * Takes every secret value out of `agent`, each replaced by a reference into `bundleId`. A value
 * that already is a reference stays as it is (a retry carries its first run's references).
 */
export function separateAgentSecrets(agent: AgentSnapshot, bundleId: string): SeparatedAgentSecrets {
  const values: AgentSecretValues = {};
  let next = 0;
  const referenced = mapAgentSecrets(agent, (value) => {
    if (isSecretRef(value)) return value;
    const ref = `${SECRET_REF_PREFIX}${bundleId}/${next++}`;
    values[ref] = value;
    return ref;
  });
  return { agent: referenced, values };
}

/** The references of `agent`, in order, each once. */
export function secretRefsOf(agent: AgentSnapshot): string[] {
  const refs = new Set<string>();
  mapAgentSecrets(agent, (value) => {
    if (isSecretRef(value)) refs.add(value);
    return value;
  });
  return [...refs];
}

export class MissingSecretError extends Error {
  readonly code = 'secret_missing';
}

/** Puts the values back in place of their references; throws `MissingSecretError` for one it lacks. */
export function resolveAgentSecrets(agent: AgentSnapshot, values: Readonly<AgentSecretValues>): AgentSnapshot {
  return mapAgentSecrets(agent, (value) => {
    if (!isSecretRef(value)) return value;
    const resolved = values[value];
    if (resolved === undefined) throw new MissingSecretError(`no value for ${value}: the queue could not open the task's secrets (see QUEUE_SECRET_KEYS)`);
    return resolved;
  });
}
