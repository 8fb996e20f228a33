import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startMockModelServer, type MockModelServer } from '@switchyard/testing';

/** What a real-CLI suite runs against: our mock model server, and a fresh HOME and work directory. */
export interface MockModelWorkspace {
  readonly server: MockModelServer;
  readonly home: string;
  readonly workDirectory: string;
}

/**
 * Sets up the workspace before the suite's own `beforeAll` hooks (declare it first) and removes it
 * after the suite. Its fields are read inside hooks and tests, once the workspace exists.
 */
export function useMockModelWorkspace(cli: string): MockModelWorkspace {
  let server: MockModelServer | undefined;
  let home: string | undefined;
  let workDirectory: string | undefined;
  beforeAll(async () => {
    server = await startMockModelServer({});
    home = await mkdtemp(path.join(tmpdir(), `switchyard-${cli}-home-`));
    workDirectory = await mkdtemp(path.join(tmpdir(), `switchyard-${cli}-work-`));
  });
  afterAll(async () => {
    await server?.stop();
    for (const directory of [home, workDirectory]) if (directory) await rm(directory, { recursive: true, force: true });
  });
  const ready = <Value>(value: Value | undefined, name: string): Value => {
    if (value === undefined) throw new Error(`the mock model workspace has no ${name} before its beforeAll hook ran`);
    return value;
  };
  return {
    get server() {
      return ready(server, 'server');
    },
    get home() {
      return ready(home, 'home');
    },
    get workDirectory() {
      return ready(workDirectory, 'work directory');
    },
  };
}
