import { z } from 'zod';
import { ConfigValidationError } from './config-validation.error';
import { databaseUrlField, logLevelField, natsUrlField, portField } from './config-fields';
import { loadConfig } from './load-config';

const schema = z.object({
  PORT: portField(8080),
  NATS_URL: natsUrlField,
  DATABASE_URL: databaseUrlField,
  LOG_LEVEL: logLevelField,
});

describe('loadConfig', () => {
  it('given a valid environment, when loaded, then values are typed and defaults applied', () => {
    const config = loadConfig({
      service: 'queue',
      schema,
      env: { NATS_URL: 'nats://127.0.0.1:4222', DATABASE_URL: 'postgres://u:p@db:5432/x' },
    });
    expect(config).toEqual({ PORT: 8080, NATS_URL: 'nats://127.0.0.1:4222', DATABASE_URL: 'postgres://u:p@db:5432/x', LOG_LEVEL: 'info' });
  });

  it('given several bad keys, when loaded, then every bad key is listed at once', () => {
    let thrown: unknown;
    try {
      loadConfig({ service: 'queue', schema, env: { PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigValidationError);
    const error = thrown as ConfigValidationError;
    expect(error.code).toBe('config_invalid');
    expect(error.problems.map((problem) => problem.key).sort()).toEqual(['DATABASE_URL', 'LOG_LEVEL', 'NATS_URL', 'PORT']);
    expect(error.problems.find((problem) => problem.key === 'NATS_URL')?.problem).toBe('is required');
    expect(error.message).toContain('4 problems');
  });

  it('given a secret in a malformed value, when rejected, then the message never repeats the value', () => {
    const secret = 'hunter2-super-secret';
    let message = '';
    try {
      loadConfig({ service: 'queue', schema, env: { NATS_URL: `nats://x:${secret}@ bad`, DATABASE_URL: `${secret}`, PORT: secret, LOG_LEVEL: secret } });
    } catch (error) {
      message = JSON.stringify(error) + String(error);
    }
    expect(message).toContain('NATS_URL');
    expect(message).not.toContain(secret);
  });
});
