import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { installYardShim } from './yard-shim.installer';

describe('installYardShim (real files, a real shell)', () => {
  let home: string;

  beforeEach(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), "yard shim's home "));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('writes an executable yard that runs the entry on the given node with every argument intact', async () => {
    const entry = path.join(home, "it's main.js");
    await writeFile(entry, 'process.stdout.write(JSON.stringify(process.argv.slice(2)));');
    const binDirectory = installYardShim({ home, nodeExecutable: process.execPath, yardEntry: entry });
    expect(binDirectory).toBe(path.join(home, 'agent-tools', 'bin'));
    expect((await stat(path.join(binDirectory!, 'yard'))).mode & 0o777).toBe(0o755);
    const output = execFileSync('yard', ['issue', 'comment', "it's done; $HOME stays literal"], { env: { PATH: `${binDirectory}:/usr/bin:/bin` }, encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual(['issue', 'comment', "it's done; $HOME stays literal"]);
  });

  it('given no built yard entry, writes nothing and says so with undefined', () => {
    expect(installYardShim({ home, nodeExecutable: process.execPath, yardEntry: path.join(home, 'missing.js') })).toBeUndefined();
  });
});
