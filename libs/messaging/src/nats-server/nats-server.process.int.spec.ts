import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkNatsReady, connectMessaging } from '../connection/messaging.connection';
import { NATS_SERVER_INSTALL_HINT, NatsServerMissingError, startNatsServer } from './nats-server.process';

describe('private nats-server', () => {
  let storeDirectory: string;
  beforeEach(() => {
    storeDirectory = mkdtempSync(path.join(tmpdir(), 'switchyard-nats-process-'));
  });
  afterEach(() => rmSync(storeDirectory, { recursive: true, force: true }));

  it('starts from PATH on a free port with JetStream, and stops', async () => {
    const server = await startNatsServer({ storeDirectory });
    const connection = await connectMessaging({ url: server.url, name: 'nats-process-test' });
    try {
      await expect(checkNatsReady(connection)).resolves.toBeUndefined();
    } finally {
      await connection.close();
      await server.stop();
    }
    expect(() => process.kill(server.pid, 0)).toThrow();
  });

  it('says exactly how to install nats-server when it is not on PATH', async () => {
    const starting = startNatsServer({ storeDirectory, executable: 'nats-server-that-does-not-exist' });
    await expect(starting).rejects.toBeInstanceOf(NatsServerMissingError);
    await expect(starting).rejects.toThrow(NATS_SERVER_INSTALL_HINT);
    expect(NATS_SERVER_INSTALL_HINT).toContain('apt-get install nats-server');
  });
});
