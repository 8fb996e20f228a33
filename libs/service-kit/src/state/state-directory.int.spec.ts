import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { preparePrivateDirectory, prepareStateDirectory } from './state-directory';

const modeOf = async (file: string): Promise<string> => ((await stat(file)).mode & 0o777).toString(8);

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

  it('creates the home and every missing parent owner-only (0700), its .gitignore 0600', async () => {
    const home = prepareStateDirectory(path.join(repository, 'parent', 'home'));

    expect(await modeOf(path.join(repository, 'parent'))).toBe('700');
    expect(await modeOf(home)).toBe('700');
    expect(await modeOf(path.join(home, '.gitignore'))).toBe('600');
  });

  it('leaves the mode of a home that already exists (the operator may share it)', async () => {
    const shared = path.join(repository, 'shared');
    await mkdir(shared);
    await chmod(shared, 0o750);
    prepareStateDirectory(shared);
    expect(await modeOf(shared)).toBe('750');
  });

  it('makes a folder of ours 0700 and the files in it 0600, also ones an earlier version left 0644', async () => {
    const home = prepareStateDirectory(path.join(repository, 'home'));
    const outbox = path.join(home, 'outbox');
    await mkdir(outbox, { mode: 0o755 });
    await writeFile(path.join(outbox, 'task-1.jsonl'), '{}\n', { mode: 0o644 });

    preparePrivateDirectory(outbox);
    preparePrivateDirectory(path.join(home, 'logs'));

    expect(await modeOf(outbox)).toBe('700');
    expect(await modeOf(path.join(outbox, 'task-1.jsonl'))).toBe('600');
    expect(await modeOf(path.join(home, 'logs'))).toBe('700');
  });
});
