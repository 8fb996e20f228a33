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

  it('joins a cluster under its own server name, with authenticated routes to every member and a monitoring port', async () => {
    const config = await renderNatsServerConfig(authority, {
      ...base,
      monitorPort: 8222,
      cluster: { clusterName: 'faults', serverName: 'faults-1', routePort: 6223, routePorts: [6222, 6223, 6224], routePassword: 'route-secret' },
    });
    expect(config).toContain('http: "127.0.0.1:8222"');
    expect(config).toContain('server_name: "faults-1"');
    expect(config).toContain('  name: "faults"\n  listen: "127.0.0.1:6223"');
    expect(config).toContain('  authorization { user: "route", password: "route-secret" }');
    expect(config).toContain('routes: ["nats://route:route-secret@127.0.0.1:6222", "nats://route:route-secret@127.0.0.1:6223", "nats://route:route-secret@127.0.0.1:6224"]');
    expect(await renderNatsServerConfig(authority, base)).not.toMatch(/cluster|server_name|http:/);
  });
});
