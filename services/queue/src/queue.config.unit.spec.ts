import { ConfigValidationError, loadConfig } from '@switchyard/service-kit';
import { minimumOfflineWindowMs, overdueWindowsOf, queueConfigSchema, retryBackoffOf } from './queue.config';

const BASE = { NATS_URL: 'nats://127.0.0.1:4222', DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/queue' };
const load = (env: NodeJS.ProcessEnv) => loadConfig({ service: 'queue', schema: queueConfigSchema, env: { ...BASE, ...env } });

describe('queue config: the offline window against the heartbeat interval', () => {
  it('defaults to a window no live daemon can cross: three 5 s heartbeats plus margin', () => {
    const config = load({});
    expect(config.QUEUE_HEARTBEAT_INTERVAL_MS).toBe(5_000);
    expect(config.QUEUE_RUNTIME_OFFLINE_AFTER_MS).toBe(20_000);
    expect(config.QUEUE_RUNTIME_OFFLINE_AFTER_MS).toBeGreaterThanOrEqual(minimumOfflineWindowMs(config.QUEUE_HEARTBEAT_INTERVAL_MS));
  });

  it('refuses at boot a window shorter than three intervals plus a second, naming the key', () => {
    expect(() => load({ QUEUE_RUNTIME_OFFLINE_AFTER_MS: '15000' })).toThrow(ConfigValidationError);
    expect(() => load({ QUEUE_RUNTIME_OFFLINE_AFTER_MS: '15000' })).toThrow(/QUEUE_RUNTIME_OFFLINE_AFTER_MS/);
    expect(load({ QUEUE_RUNTIME_OFFLINE_AFTER_MS: '3000', QUEUE_HEARTBEAT_INTERVAL_MS: '500' }).QUEUE_RUNTIME_OFFLINE_AFTER_MS).toBe(3_000);
  });
});

describe('queue config: retry backoff', () => {
  it('defaults to 5 s doubling up to 5 min', () => {
    const config = load({});
    expect(retryBackoffOf(config)).toEqual({ baseMs: 5_000, maxMs: 300_000 });
  });

  it('refuses at boot a cap below the base and a base that is not a positive integer, naming the keys', () => {
    expect(() => load({ QUEUE_RETRY_BACKOFF_BASE_MS: '10000', QUEUE_RETRY_BACKOFF_MAX_MS: '5000' })).toThrow(/QUEUE_RETRY_BACKOFF_MAX_MS/);
    expect(() => load({ QUEUE_RETRY_BACKOFF_BASE_MS: '0' })).toThrow(/QUEUE_RETRY_BACKOFF_BASE_MS/);
    expect(retryBackoffOf(load({ QUEUE_RETRY_BACKOFF_BASE_MS: '50', QUEUE_RETRY_BACKOFF_MAX_MS: '200' }))).toEqual({ baseMs: 50, maxMs: 200 });
  });
});

describe('queue config: the reconnect grace', () => {
  it('defaults to 10 min, far past the offline window, and hands both to the sweeper', () => {
    const config = load({});
    expect(config.QUEUE_RECONNECT_GRACE_MS).toBe(600_000);
    expect(overdueWindowsOf(config)).toEqual({ offlineAfterMs: 20_000, reconnectGraceMs: 600_000, startDeadlineMs: 45_000, leaseMs: 30_000, expireOfflineQueuedAfterMs: 7_200_000 });
  });

  it('refuses at boot a grace shorter than the offline window, naming the key', () => {
    expect(() => load({ QUEUE_RECONNECT_GRACE_MS: '19999' })).toThrow(/QUEUE_RECONNECT_GRACE_MS/);
    expect(load({ QUEUE_RECONNECT_GRACE_MS: '20000' }).QUEUE_RECONNECT_GRACE_MS).toBe(20_000);
  });
});
