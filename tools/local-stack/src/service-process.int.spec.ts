import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ServiceProcess } from './service-process';

describe('a supervised service child', () => {
  let directory: string;

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'switchyard-service-process-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('writes its log to a file only its owner can read (0600)', async () => {
    const entry = path.join(directory, 'service.js');
    // Stays up like a service until it is stopped; its line says it is serving.
    await writeFile(entry, "console.log(JSON.stringify({ event: 'service_listening' }));\nsetInterval(() => undefined, 1000);\n");
    const logFile = path.join(directory, 'service.log');
    const unexpectedExits: string[] = [];
    const service = new ServiceProcess({ name: 'probe', entry, env: { PATH: process.env['PATH'] ?? '' }, logFile, verbose: false, onUnexpectedExit: (name) => unexpectedExits.push(name) });

    while (!(await readFile(logFile, 'utf8').catch(() => '')).includes('service_listening')) await new Promise((resolve) => setTimeout(resolve, 25));
    await service.stop(5_000);

    expect(((await stat(logFile)).mode & 0o777).toString(8)).toBe('600');
    expect(unexpectedExits).toEqual([]);
  });
});
