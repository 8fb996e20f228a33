import { ConfigValidationError, loadConfig } from '@switchyard/service-kit';
import { daemonConfigSchema } from './daemon.config';

const load = (env: NodeJS.ProcessEnv) => loadConfig({ service: 'daemon', schema: daemonConfigSchema, env: { NATS_URL: 'nats://127.0.0.1:4222', DAEMON_ID: 'daemon-config-test', ...env } });

describe('daemon config: the wait for session-resume', () => {
  it('waits 2 s for session-resume by default, and as configured', () => {
    expect(load({}).DAEMON_SESSION_RESOLVE_TIMEOUT_MS).toBe(2_000);
    expect(load({ DAEMON_SESSION_RESOLVE_TIMEOUT_MS: '500' }).DAEMON_SESSION_RESOLVE_TIMEOUT_MS).toBe(500);
  });

  it.each(['0', '-1', '1.5', 'soon'])('refuses %j at boot, naming the key', (value) => {
    expect(() => load({ DAEMON_SESSION_RESOLVE_TIMEOUT_MS: value })).toThrow(ConfigValidationError);
    expect(() => load({ DAEMON_SESSION_RESOLVE_TIMEOUT_MS: value })).toThrow(/DAEMON_SESSION_RESOLVE_TIMEOUT_MS/);
  });
});

describe('daemon config: the daemon id', () => {
  it('takes an id made for subjects', () => {
    expect(load({ DAEMON_ID: 'laptop-ada_1' }).DAEMON_ID).toBe('laptop-ada_1');
  });

  it('has no default: an id comes from enrollment, never from the host name', () => {
    expect(() => loadConfig({ service: 'daemon', schema: daemonConfigSchema, env: { NATS_URL: 'nats://127.0.0.1:4222' } })).toThrow(/DAEMON_ID/);
  });

  it.each(['queue', 'gateway', 'session-resume', 'transcript', 'workspace', 'a.b'])('refuses %j at boot, naming the key', (value) => {
    expect(() => load({ DAEMON_ID: value })).toThrow(/DAEMON_ID/);
  });
});

describe('daemon config: the gateway agents call back', () => {
  it('is unset by default, and taken without a trailing slash', () => {
    expect(load({}).DAEMON_GATEWAY_URL).toBeUndefined();
    expect(load({ DAEMON_GATEWAY_URL: 'http://127.0.0.1:8080/' }).DAEMON_GATEWAY_URL).toBe('http://127.0.0.1:8080');
  });

  it.each(['gateway', 'ftp://gateway.example', 'file:///etc/passwd'])('refuses %j at boot, naming the key', (value) => {
    expect(() => load({ DAEMON_GATEWAY_URL: value })).toThrow(/DAEMON_GATEWAY_URL/);
  });
});

describe('daemon config: the work-directory GC', () => {
  it('passes every 10 min, keeps a directory 7 days and 20 GiB per agent by default', () => {
    const config = load({});
    expect(config.DAEMON_WORKDIR_GC_INTERVAL_MS).toBe(600_000);
    expect(config.DAEMON_WORKDIR_MAX_AGE_MS).toBe(7 * 24 * 3_600_000);
    expect(config.DAEMON_WORKDIR_MAX_BYTES_PER_AGENT).toBe(21_474_836_480);
  });

  it('takes settings as configured, 0 turning the GC off', () => {
    const config = load({ DAEMON_WORKDIR_GC_INTERVAL_MS: '0', DAEMON_WORKDIR_MAX_AGE_MS: '3600000', DAEMON_WORKDIR_MAX_BYTES_PER_AGENT: '1073741824' });
    expect(config).toMatchObject({ DAEMON_WORKDIR_GC_INTERVAL_MS: 0, DAEMON_WORKDIR_MAX_AGE_MS: 3_600_000, DAEMON_WORKDIR_MAX_BYTES_PER_AGENT: 1_073_741_824 });
  });

  it.each([
    ['DAEMON_WORKDIR_GC_INTERVAL_MS', '-1'],
    ['DAEMON_WORKDIR_GC_INTERVAL_MS', 'hourly'],
    ['DAEMON_WORKDIR_MAX_AGE_MS', '0'],
    ['DAEMON_WORKDIR_MAX_AGE_MS', '1.5'],
    ['DAEMON_WORKDIR_MAX_BYTES_PER_AGENT', '0'],
    ['DAEMON_WORKDIR_MAX_BYTES_PER_AGENT', '20G'],
  ])('refuses %s=%j at boot, naming the key', (key, value) => {
    expect(() => load({ [key]: value })).toThrow(ConfigValidationError);
    expect(() => load({ [key]: value })).toThrow(new RegExp(key));
  });

  it('lists every bad GC key at once', () => {
    expect(() => load({ DAEMON_WORKDIR_MAX_AGE_MS: '-5', DAEMON_WORKDIR_MAX_BYTES_PER_AGENT: 'lots' })).toThrow(/DAEMON_WORKDIR_MAX_AGE_MS[\s\S]*DAEMON_WORKDIR_MAX_BYTES_PER_AGENT|DAEMON_WORKDIR_MAX_BYTES_PER_AGENT[\s\S]*DAEMON_WORKDIR_MAX_AGE_MS/);
  });
});
