import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { resolveDaemonEnvironment } from './daemon-identity.resolver';
import { writeDaemonIdentity } from './daemon-identity.store';

describe('resolveDaemonEnvironment (an enrolled home on disk)', () => {
  let home: string;

  beforeEach(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'daemon-identity-'));
    writeDaemonIdentity(home, { daemonId: 'laptop-7', workspaceId: 'team', gatewayUrl: 'http://gateway.internal:8080', creds: 'creds', curveSeed: 'SX-not-a-real-seed' });
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('given no DAEMON_GATEWAY_URL, lets the agents call back where the daemon enrolled', async () => {
    const env = await resolveDaemonEnvironment({ SWITCHYARD_HOME: home });
    expect(env).toMatchObject({ DAEMON_ID: 'laptop-7', DAEMON_WORKSPACE_ID: 'team', DAEMON_GATEWAY_URL: 'http://gateway.internal:8080' });
  });

  it('given DAEMON_GATEWAY_URL, keeps it', async () => {
    const env = await resolveDaemonEnvironment({ SWITCHYARD_HOME: home, DAEMON_GATEWAY_URL: 'https://switchyard.example' });
    expect(env['DAEMON_GATEWAY_URL']).toBe('https://switchyard.example');
  });
});
