import { createBusAuthority, renderNatsServerConfig, type NatsServerConfigOptions } from '@switchyard/messaging';
import { BusSetupError } from './bus-setup.error';
import { natsOperatorInclude, sameApartFromJwts } from './nats-operator.include';

const SERVER: NatsServerConfigOptions = { host: '0.0.0.0', port: 4222, jetStreamDirectory: '/data/jetstream', resolverDirectory: '/data/resolver' };
const keysOf = (config: string): string[] => config.split('\n').filter((line) => /^[a-z_]+/.test(line)).map((line) => /^[a-z_]+/.exec(line)![0]);

describe('the operator include', () => {
  it('given a rendered config with TLS, when the include is taken, then it holds the operator, the system account and the preloaded accounts only', async () => {
    const config = await renderNatsServerConfig(createBusAuthority(), { ...SERVER, tls: { certFile: '/tls/tls.crt', keyFile: '/tls/tls.key' } });

    const include = natsOperatorInclude(config);

    expect(keysOf(include)).toEqual(['operator', 'system_account', 'resolver_preload']);
    // Taken as rendered, JWTs and all.
    for (const line of include.split('\n').filter((text) => text !== '')) expect(config.split('\n')).toContain(line);
    expect(include).not.toMatch(/store_dir|cert_file|port|host/);
  });

  it('given a config with a key bus-setup does not place, then it refuses rather than dropping it', () => {
    const config = 'host: "0.0.0.0"\nport: 4222\nmax_payload: 8MB\n';

    expect(() => natsOperatorInclude(config)).toThrow(expect.objectContaining({ code: 'unexpected_config', message: expect.stringContaining('max_payload') }) as BusSetupError);
  });

  it('given an unclosed block, then it refuses', () => {
    expect(() => natsOperatorInclude('resolver_preload {\n  A: x\n')).toThrow(BusSetupError);
  });
});

describe('comparing renderings', () => {
  it('finds two renderings of one authority and the same settings the same, though their JWTs differ', async () => {
    const authority = createBusAuthority();
    const first = await renderNatsServerConfig(authority, SERVER);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const second = await renderNatsServerConfig(authority, SERVER);

    expect(second).not.toBe(first);
    expect(sameApartFromJwts(first, second)).toBe(true);
  });

  it('tells other settings or another authority apart', async () => {
    const authority = createBusAuthority();
    const first = await renderNatsServerConfig(authority, SERVER);

    expect(sameApartFromJwts(first, await renderNatsServerConfig(authority, { ...SERVER, port: 4223 }))).toBe(false);
    expect(sameApartFromJwts(first, await renderNatsServerConfig(createBusAuthority(), SERVER))).toBe(false);
  });
});
