import type { PlatformConfig, ServiceBaseConfig, ServiceDefinition } from '@switchyard/service-kit';
import { rejectedConfigKeys, startServiceForTest, type ServiceUnderTest } from './service-harness';

/**
 * The boot contract every service keeps: it starts on real NATS (and Postgres when it keeps state),
 * answers /healthz and /readyz naming each dependency, and refuses a bad environment listing every
 * bad key.
 */
export function describeServiceBoot<Config extends ServiceBaseConfig & PlatformConfig>(
  definition: ServiceDefinition<Config>,
  options: { readonly database: boolean; /** Settings the service requires that the harness does not give (a daemon's id). */ readonly env?: NodeJS.ProcessEnv },
): void {
  describe(`${definition.service} service boot`, () => {
    let running: ServiceUnderTest | undefined;
    afterAll(async () => {
      await running?.stop();
    });

    it('boots on real NATS and reports ready with every dependency checked', async () => {
      running = await startServiceForTest(definition, { database: options.database, ...(options.env ? { env: options.env } : {}) });
      const health = await fetch(`${running.url}/healthz`);
      expect(health.status).toBe(200);
      const ready = await fetch(`${running.url}/readyz`);
      const expectedChecks = options.database ? { nats: { ok: true }, database: { ok: true } } : { nats: { ok: true } };
      expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 200, body: { ready: true, checks: expectedChecks } });
    });

    it('refuses a bad environment and names every bad key', () => {
      const expected = ['LOG_LEVEL', 'NATS_URL', 'PORT', ...(options.database ? ['DATABASE_URL'] : [])].sort();
      expect(rejectedConfigKeys(definition, { ...options.env, PORT: 'abc', LOG_LEVEL: 'chatty', ...(options.database ? { DATABASE_URL: 'mysql://nope' } : {}) })).toEqual(expected);
    });
  });
}
