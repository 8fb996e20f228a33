import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { prepareStateDirectory } from './state-directory';

describe('state directory', () => {
  let repository: string;

  beforeEach(async () => {
    repository = await mkdtemp(path.join(tmpdir(), 'switchyard-state-dir-'));
    execFileSync('git', ['init', '-q', repository]);
  });
  afterEach(async () => {
    await rm(repository, { recursive: true, force: true });
  });

  it('is ignored by git wherever it is created inside a clone, with everything in it', async () => {
    const home = prepareStateDirectory(path.join(repository, 'my-home', 'nested'));
    await writeFile(path.join(home, 'api-token'), 'sy_secret\n');

    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: repository, encoding: 'utf8' });
    expect(status).toBe('');
  });

  it('keeps a .gitignore the operator edited', async () => {
    const home = prepareStateDirectory(path.join(repository, 'home'));
    await writeFile(path.join(home, '.gitignore'), '*\n!notes.md\n');
    prepareStateDirectory(home);
    expect(await readFile(path.join(home, '.gitignore'), 'utf8')).toBe('*\n!notes.md\n');
  });
});
