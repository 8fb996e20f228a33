import { ConfigValidationError } from './config-validation.error';
import { loadConfig } from './load-config';
import { databaseServiceConfigSchema, natsServiceConfigSchema } from './service-config.schema';

const NATS = { NATS_URL: 'nats://127.0.0.1:4222' };
const load = (env: NodeJS.ProcessEnv) => loadConfig({ service: 'queue', schema: natsServiceConfigSchema(8081), env: { ...NATS, ...env } });

function rejectedKeys(env: NodeJS.ProcessEnv): string[] {
  try {
    load(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigValidationError)) throw error;
    return error.problems.map((problem) => `${problem.key}: ${problem.problem}`);
  }
}

describe('METRICS_PORT', () => {
  it('is off unless set: unset and empty both leave it undefined', () => {
    expect(load({}).METRICS_PORT).toBeUndefined();
    expect(load({ METRICS_PORT: '' }).METRICS_PORT).toBeUndefined();
  });

  it('takes a port, or 0 for a free one', () => {
    expect(load({ METRICS_PORT: '9464' }).METRICS_PORT).toBe(9464);
    expect(load({ PORT: '0', METRICS_PORT: '0' })).toMatchObject({ PORT: 0, METRICS_PORT: 0 });
  });

  it('refuses what is not a port, and the service port itself, naming the key', () => {
    expect(rejectedKeys({ METRICS_PORT: 'metrics' }).map((problem) => problem.split(':')[0])).toEqual(['METRICS_PORT']);
    expect(rejectedKeys({ METRICS_PORT: '70000' })).toEqual(['METRICS_PORT: must be 0-65535']);
    expect(rejectedKeys({ METRICS_PORT: '8081' })).toEqual(['METRICS_PORT: must differ from PORT']);
    expect(rejectedKeys({ PORT: '9000', METRICS_PORT: '9000' })).toEqual(['METRICS_PORT: must differ from PORT']);
  });

  it('is a key of the database services’ schema too (the Helm chart sets it on every component)', () => {
    expect(Object.keys(databaseServiceConfigSchema(8080).shape)).toContain('METRICS_PORT');
  });
});

describe('NATS_CONNECT_TIMEOUT_MS', () => {
  it('gives the first connection 10 s unless set', () => {
    expect(load({}).NATS_CONNECT_TIMEOUT_MS).toBe(10_000);
    expect(load({ NATS_CONNECT_TIMEOUT_MS: '30000' }).NATS_CONNECT_TIMEOUT_MS).toBe(30_000);
  });

  it('refuses what is not a whole number of milliseconds within 1 s to 5 min, naming the key', () => {
    expect(rejectedKeys({ NATS_CONNECT_TIMEOUT_MS: 'soon' }).map((problem) => problem.split(':')[0])).toEqual(['NATS_CONNECT_TIMEOUT_MS']);
    expect(rejectedKeys({ NATS_CONNECT_TIMEOUT_MS: '500' })).toEqual(['NATS_CONNECT_TIMEOUT_MS: must be at least 1000 (ms)']);
    expect(rejectedKeys({ NATS_CONNECT_TIMEOUT_MS: '600000' })).toEqual(['NATS_CONNECT_TIMEOUT_MS: must be at most 300000 (ms)']);
  });
});
