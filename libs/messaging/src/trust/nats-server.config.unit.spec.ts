import { createBusAuthority } from './bus-authority';
import { renderNatsServerConfig } from './nats-server.config';

describe('the nats-server config of a bus', () => {
  const authority = createBusAuthority();
  const base = { host: '127.0.0.1', port: -1, jetStreamDirectory: '/data/js', resolverDirectory: '/data/jwt' };

  it('trusts the operator, names the system account and preloads both accounts into a full resolver', async () => {
    const config = await renderNatsServerConfig(authority, base);
    expect(config).toContain(`system_account: ${authority.systemAccount.getPublicKey()}`);
    expect(config).toMatch(/^operator: ey/m);
    expect(config).toContain('resolver { type: full, dir: "/data/jwt", allow_delete: false');
    expect(config).toContain(`  ${authority.appAccount.getPublicKey()}: ey`);
    expect(config).not.toContain('tls {');
  });

  it('adds TLS, and client verification when a CA is given', async () => {
    const config = await renderNatsServerConfig(authority, { ...base, tls: { certFile: '/tls/server.pem', keyFile: '/tls/server.key', caFile: '/tls/ca.pem' } });
    expect(config).toContain('tls {\n  cert_file: "/tls/server.pem"\n  key_file: "/tls/server.key"\n  ca_file: "/tls/ca.pem"\n  verify: true\n}');
  });
});
