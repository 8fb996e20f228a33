import type { BusAuthority } from './bus-authority';
import { accountIssuerOf, appAccountJwt, operatorJwt, systemAccountJwt, type RevokedUsers } from './account-claims';

export interface NatsServerTls {
  readonly certFile: string;
  readonly keyFile: string;
  /** Verify clients against this CA (mutual TLS) when given. */
  readonly caFile?: string;
}

export interface NatsServerConfigOptions {
  readonly host: string;
  /** -1 lets the server pick a free port. */
  readonly port: number;
  readonly jetStreamDirectory: string;
  /** Where the full resolver keeps account JWTs, updated over the system account. */
  readonly resolverDirectory: string;
  readonly tls?: NatsServerTls;
  readonly revoked?: RevokedUsers;
  /** Member of a JetStream cluster (streams then keep their catalog replicas). */
  readonly cluster?: NatsServerClusterMembership;
  /** The monitoring endpoint (`/healthz`, `/jsz`) on the same host; absent: none. */
  readonly monitorPort?: number;
}

export interface NatsServerClusterMembership {
  readonly clusterName: string;
  /** Unique in the cluster: JetStream places stream replicas and elects leaders by it. */
  readonly serverName: string;
  readonly routePort: number;
  /** Every member's route port (its own included, which the server skips). */
  readonly routePorts: readonly number[];
  /** Routes authenticate with it: anything that reaches a route port sees every account's traffic. */
  readonly routePassword: string;
}

const quoted = (value: string): string => JSON.stringify(value);

/**
 * A nats-server config in operator mode with the full resolver: account JWTs are preloaded, and
 * updates (revocations) pushed over the system account take effect at once and survive restarts.
 */
export async function renderNatsServerConfig(authority: BusAuthority, options: NatsServerConfigOptions): Promise<string> {
  const system = authority.systemAccount.getPublicKey();
  const app = authority.appAccount.getPublicKey();
  const lines = [
    `host: ${quoted(options.host)}`,
    `port: ${options.port}`,
    `operator: ${await operatorJwt(authority)}`,
    `system_account: ${system}`,
    `jetstream { store_dir: ${quoted(options.jetStreamDirectory)} }`,
    `resolver { type: full, dir: ${quoted(options.resolverDirectory)}, allow_delete: false, interval: "2m" }`,
    'resolver_preload {',
    `  ${system}: ${await systemAccountJwt(authority)}`,
    `  ${app}: ${await appAccountJwt(accountIssuerOf(authority), options.revoked)}`,
    '}',
  ];
  if (options.monitorPort !== undefined) lines.push(`http: ${quoted(`${options.host}:${options.monitorPort}`)}`);
  if (options.cluster) lines.push(...clusterLines(options.host, options.cluster));
  if (options.tls) {
    lines.push('tls {', `  cert_file: ${quoted(options.tls.certFile)}`, `  key_file: ${quoted(options.tls.keyFile)}`);
    if (options.tls.caFile) lines.push(`  ca_file: ${quoted(options.tls.caFile)}`, '  verify: true');
    lines.push('}');
  }
  return `${lines.join('\n')}\n`;
}

function clusterLines(host: string, cluster: NatsServerClusterMembership): string[] {
  const route = (port: number): string => quoted(`nats://route:${cluster.routePassword}@${host}:${port}`);
  return [
    `server_name: ${quoted(cluster.serverName)}`,
    'cluster {',
    `  name: ${quoted(cluster.clusterName)}`,
    `  listen: ${quoted(`${host}:${cluster.routePort}`)}`,
    // Clients are given every server's URL; they need not learn them from route gossip.
    '  no_advertise: true',
    '  connect_retries: 120',
    `  authorization { user: "route", password: ${quoted(cluster.routePassword)} }`,
    `  routes: [${cluster.routePorts.map(route).join(', ')}]`,
    '}',
  ];
}
