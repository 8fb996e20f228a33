import { ConfigValidationError, loadConfig } from '@switchyard/service-kit';
import { gatewayConfigSchema } from './gateway.config';

const BASE = { NATS_URL: 'nats://127.0.0.1:4222', DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/gateway' };
const load = (env: NodeJS.ProcessEnv) => loadConfig({ service: 'gateway', schema: gatewayConfigSchema, env: { ...BASE, ...env } });

describe('gateway config: failed authentication limit and live token recheck', () => {
  it('defaults to 10 failures per minute per address and a recheck every 2 s', () => {
    const config = load({});
    expect({ limit: config.GATEWAY_AUTH_FAILURE_LIMIT, windowMs: config.GATEWAY_AUTH_FAILURE_WINDOW_MS, recheckMs: config.GATEWAY_LIVE_TOKEN_RECHECK_MS }).toEqual({ limit: 10, windowMs: 60_000, recheckMs: 2_000 });
  });

  it('refuses at boot a limit, window or recheck that is not a positive integer, naming every key', () => {
    let refusal: unknown;
    try {
      load({ GATEWAY_AUTH_FAILURE_LIMIT: '0', GATEWAY_AUTH_FAILURE_WINDOW_MS: 'a minute', GATEWAY_LIVE_TOKEN_RECHECK_MS: '-1' });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ConfigValidationError);
    expect((refusal as ConfigValidationError).problems.map((problem) => problem.key).sort()).toEqual(['GATEWAY_AUTH_FAILURE_LIMIT', 'GATEWAY_AUTH_FAILURE_WINDOW_MS', 'GATEWAY_LIVE_TOKEN_RECHECK_MS']);
  });
});
