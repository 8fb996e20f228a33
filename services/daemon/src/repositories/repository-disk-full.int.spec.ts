import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createOriginRepository, workspaceRoot } from '@switchyard/testing';
import { createRepositoryPlayground, freshWorkDirectory, worktreeRepository } from './repositories.spec-helper';

/**
 * A full disk, for real: the cache's folder is a 256 KiB tmpfs, mounted in a private mount
 * namespace (`unshare --user --map-root-user --mount`, so neither root nor the host's mounts are
 * touched), and the built daemon code clones a 1 MiB repository into it there. git then runs out
 * of space the way it does on a full disk, and the checkout must say `disk_full`, naming the
 * repository.
 */
describe('prepareRepositoryCheckout on a full disk (real git, a tiny tmpfs)', () => {
  let playground: Awaited<ReturnType<typeof createRepositoryPlayground>>;

  beforeAll(() => {
    execFileSync(process.execPath, [path.join(workspaceRoot(), 'tools/build/build.mjs')], { stdio: 'ignore' });
  });
  beforeEach(async () => {
    playground = await createRepositoryPlayground();
  });
  afterEach(() => playground.remove());

  it('fails disk_full with a message naming the repository, and leaves no half-made cache', async () => {
    // Random bytes do not compress: the pack is as big as the files.
    const files = Object.fromEntries(Array.from({ length: 64 }, (_, index) => [`blob-${index}.bin`, randomBytes(12 * 1024).toString('base64')]));
    const origin = await createOriginRepository({ directory: path.join(playground.root, 'origin', 'big.git'), files });
    const workDirectory = await freshWorkDirectory(playground.workspacesRoot, 'task-full');
    await mkdir(playground.cacheRoot, { recursive: true });
    const repository = worktreeRepository({ name: 'big', url: origin.url });
    const repositoriesModule = path.join(workspaceRoot(), 'dist/services/daemon/src/repositories/index.js');
    const script = `
      const { execFileSync } = require('node:child_process');
      const { readdirSync } = require('node:fs');
      const [cacheRoot, workDirectory, repository, modulePath] = process.argv.slice(1);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', cacheRoot]);
      const { openRepositoryCache, prepareRepositoryCheckout } = require(modulePath);
      (async () => {
        const cache = await openRepositoryCache(cacheRoot);
        try {
          await prepareRepositoryCheckout({ cache, repository: JSON.parse(repository), workDirectory, branchName: 'switchyard/task/full', taskId: 'task-full' });
          process.stdout.write(JSON.stringify({ ok: true }));
        } catch (error) {
          const left = readdirSync(cacheRoot).filter((name) => !name.startsWith('.'));
          process.stdout.write(JSON.stringify({ code: error.code, message: error.message, left }));
        }
      })();
    `;
    const output = execFileSync(
      'unshare',
      ['--user', '--map-root-user', '--mount', process.execPath, '-e', script, playground.cacheRoot, workDirectory, JSON.stringify(repository), repositoriesModule],
      { encoding: 'utf8' },
    );

    const outcome = JSON.parse(output) as { code?: string; message?: string; left?: string[] };
    expect(outcome).toEqual({ code: 'disk_full', message: expect.stringMatching(/^Repository big \(file:\/\/.*big\.git\): /), left: [] });
    expect(outcome.message).not.toMatch(/\n\s+at /);
  });
});
