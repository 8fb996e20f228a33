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
  if (options.tls) {
    lines.push('tls {', `  cert_file: ${quoted(options.tls.certFile)}`, `  key_file: ${quoted(options.tls.keyFile)}`);
    if (options.tls.caFile) lines.push(`  ca_file: ${quoted(options.tls.caFile)}`, '  verify: true');
    lines.push('}');
  }
  return `${lines.join('\n')}\n`;
}
