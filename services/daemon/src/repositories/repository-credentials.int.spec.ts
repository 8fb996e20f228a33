import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createOriginRepository, startGitHttpServer, type GitHttpServer } from '@switchyard/testing';
import { openRepositoryCache, repositoryCachePath, type RepositoryCache } from './repository.cache';
import { prepareRepositoryCheckout } from './repository-checkout.preparer';
import { createRepositoryPlayground, filesContaining, freshWorkDirectory, gitIn, rejectionOf, worktreeRepository } from './repositories.spec-helper';

const SECRET = 'ghp_SwitchyardTestToken0123456789abcdef';

describe('repository credentials over smart HTTP (real git http-backend)', () => {
  let playground: Awaited<ReturnType<typeof createRepositoryPlayground>>;
  let server: GitHttpServer;
  let cache: RepositoryCache;
  let url: string;
  beforeEach(async () => {
    playground = await createRepositoryPlayground();
    const served = path.join(playground.root, 'served');
    await createOriginRepository({ directory: path.join(served, 'web.git'), files: { 'README.md': 'over http\n' } });
    server = await startGitHttpServer({ root: served, username: 'x-access-token', password: SECRET });
    cache = await openRepositoryCache(playground.cacheRoot);
    url = `${server.url}/web.git`;
  });
  afterEach(async () => {
    await server.close();
    await playground.remove();
  });

  it('clones and fetches with the credential, which stays out of the cache, the work dir and the remote URL', async () => {
    const repository = worktreeRepository({ url, credential: { kind: 'https_token', username: 'x-access-token', secret: SECRET } });
    const workDirectory = await freshWorkDirectory(playground.workspacesRoot, 'task-a');
    const checkout = await prepareRepositoryCheckout({ cache, repository, workDirectory, branchName: 'b1', taskId: 'task-a' });
    await expect(readFile(path.join(checkout.path, 'README.md'), 'utf8')).resolves.toBe('over http\n');
    // A second task fetches into the existing cache with the same credential.
    await prepareRepositoryCheckout({ cache, repository, workDirectory: await freshWorkDirectory(playground.workspacesRoot, 'task-b'), branchName: 'b2', taskId: 'task-b' });

    const cachePath = repositoryCachePath(cache, repository);
    await expect(gitIn(cachePath, 'config', '--get', 'remote.origin.url')).resolves.toBe(url);
    await expect(filesContaining(playground.cacheRoot, SECRET)).resolves.toEqual([]);
    await expect(filesContaining(playground.workspacesRoot, SECRET)).resolves.toEqual([]);
    await expect(filesContaining(playground.cacheRoot, Buffer.from(`x-access-token:${SECRET}`).toString('base64'))).resolves.toEqual([]);
  });

  it('reports a wrong credential, and none at all, as repo_auth_failed without the secret in the message', async () => {
    const workDirectory = await freshWorkDirectory(playground.workspacesRoot, 'task-a');
    const wrong = worktreeRepository({ url, credential: { kind: 'https_token', username: 'x-access-token', secret: `${SECRET}-revoked` } });
    const refusal = await rejectionOf(prepareRepositoryCheckout({ cache, repository: wrong, workDirectory, branchName: 'b', taskId: 'task-a' }));
    expect(refusal).toMatchObject({ code: 'repo_auth_failed', isRetryable: false, repositoryName: 'web' });
    expect(refusal.message).toBe(`Repository web (${url}): cloning it failed: Authentication failed for '${url}/'`);
    expect(refusal.message).not.toContain(SECRET);

    const anonymous = worktreeRepository({ url });
    await expect(prepareRepositoryCheckout({ cache, repository: anonymous, workDirectory, branchName: 'b', taskId: 'task-a' })).rejects.toMatchObject({ code: 'repo_auth_failed' });
    expect(server.refusals()).toBeGreaterThanOrEqual(2);
    await expect(filesContaining(playground.cacheRoot, SECRET)).resolves.toEqual([]);
  });

  it('refuses a fetch whose credential was revoked after the clone, keeping the cache', async () => {
    const good = worktreeRepository({ url, credential: { kind: 'https_token', username: 'x-access-token', secret: SECRET } });
    await prepareRepositoryCheckout({ cache, repository: good, workDirectory: await freshWorkDirectory(playground.workspacesRoot, 'task-a'), branchName: 'b1', taskId: 'task-a' });
    const revoked = { ...good, credential: { ...good.credential!, secret: 'revoked-token-value-0000' } };
    const error = await rejectionOf(prepareRepositoryCheckout({ cache, repository: revoked, workDirectory: await freshWorkDirectory(playground.workspacesRoot, 'task-b'), branchName: 'b2', taskId: 'task-b' }));
    expect(error).toMatchObject({ code: 'repo_auth_failed' });
    expect(error.message).toMatch(/fetching it failed: Authentication failed/);
    await expect(gitIn(repositoryCachePath(cache, good), 'rev-parse', '--verify', 'refs/heads/b1')).resolves.toMatch(/^[0-9a-f]{40}$/);
  });

  it('refuses a URL that carries a password instead of the credential, never storing it', async () => {
    const withPassword = worktreeRepository({ url: url.replace('http://', `http://x-access-token:${SECRET}@`) });
    const error = await rejectionOf(
      prepareRepositoryCheckout({ cache, repository: withPassword, workDirectory: await freshWorkDirectory(playground.workspacesRoot, 'task-a'), branchName: 'b', taskId: 'task-a' }),
    );
    expect(error).toMatchObject({ code: 'repo_auth_failed' });
    expect(error.message).toBe(`Repository web (${url}): the URL carries a password; give it as the repository credential instead`);
    await expect(filesContaining(playground.cacheRoot, SECRET)).resolves.toEqual([]);
  });
});
