import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startGitHttpServer, type GitHttpServer } from './git-http.server';
import { commitToOrigin, createOriginRepository, generateRepositoryFiles } from './origin-repository';

const execFileAsync = promisify(execFile);
const git = (cwd: string, ...args: string[]) =>
  execFileAsync('git', ['-c', 'credential.helper=', '-c', 'user.name=T', '-c', 'user.email=t@t.invalid', ...args], { cwd, env: { PATH: process.env['PATH'], LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' } });

describe('startGitHttpServer and createOriginRepository (real git http-backend)', () => {
  let root: string;
  let server: GitHttpServer;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'git-http-'));
    server = await startGitHttpServer({ root: path.join(root, 'served'), username: 'bot', password: 'pa55-word' });
  });
  afterEach(async () => {
    await server.close();
    await rm(root, { recursive: true, force: true });
  });

  it('serves clone and push to the right credential and answers 401 to a wrong one', async () => {
    const origin = await createOriginRepository({ directory: path.join(root, 'served', 'app.git'), files: { 'README.md': 'hi\n' }, branch: 'trunk' });
    const authorised = server.url.replace('http://', 'http://bot:pa55-word@');
    await git(root, 'clone', '--quiet', `${authorised}/app.git`, 'clone');
    await expect(readFile(path.join(root, 'clone', 'README.md'), 'utf8')).resolves.toBe('hi\n');
    await expect(git(path.join(root, 'clone'), 'rev-parse', 'HEAD')).resolves.toMatchObject({ stdout: `${origin.headCommit}\n` });

    await writeFile(path.join(root, 'clone', 'pushed.txt'), 'pushed\n');
    await git(path.join(root, 'clone'), 'add', '-A');
    await git(path.join(root, 'clone'), 'commit', '--quiet', '-m', 'push over http');
    await git(path.join(root, 'clone'), 'push', '--quiet', 'origin', 'trunk');
    const { stdout: pushed } = await git(origin.path, 'log', '--format=%s', '-1', 'trunk');
    expect(pushed.trim()).toBe('push over http');

    const refusal = await git(root, 'clone', '--quiet', `${server.url.replace('http://', 'http://bot:wrong@')}/app.git`, 'refused').catch((error: { stderr: string }) => error.stderr);
    expect(refusal).toContain('Authentication failed');
    expect(server.refusals()).toBeGreaterThan(0);
  });

  it('writes 10,000 files in one commit and adds later commits on top', async () => {
    const origin = await createOriginRepository({ directory: path.join(root, 'big.git'), files: generateRepositoryFiles(10_000) });
    const { stdout: count } = await git(origin.path, 'ls-tree', '-r', '--name-only', 'main');
    expect(count.trim().split('\n')).toHaveLength(10_000);
    const next = await commitToOrigin({ path: origin.path, branch: 'main', files: { 'src/000/file-00000.txt': null, 'new.txt': 'new\n' }, message: 'second' });
    const { stdout: changed } = await git(origin.path, 'diff', '--name-status', origin.headCommit, next.headCommit);
    expect(changed.trim().split('\n').sort()).toEqual(['A\tnew.txt', 'D\tsrc/000/file-00000.txt']);
    expect(next.url).toBe(`file://${origin.path}`);
  });
});
