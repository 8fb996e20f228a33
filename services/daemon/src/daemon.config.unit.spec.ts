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
