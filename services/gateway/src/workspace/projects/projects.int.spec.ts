import { DEFAULT_BRANCH_TEMPLATE } from '@switchyard/contracts';
import { GatewayTestKit, pluck, type TestWorkspace } from '../../gateway-test.spec-helper';
import { FakeQueue } from '../tasks/fake-queue.spec-helper';

describe('projects and repositories API (real NATS + Postgres)', () => {
  let kit: GatewayTestKit;
  let queue: FakeQueue;
  let alpha: TestWorkspace;
  let beta: TestWorkspace;

  beforeAll(async () => {
    kit = await GatewayTestKit.start({ GATEWAY_QUEUE_TIMEOUT_MS: '1000' });
    queue = new FakeQueue(kit);
    queue.start();
    alpha = await kit.workspace('Alpha');
    beta = await kit.workspace('Beta');
    await kit.as(alpha.token).post('/api/secrets', { name: 'github-token', value: 'ghp_projects-int-spec-value' });
  });
  afterAll(async () => {
    await queue?.stop();
    await kit?.stop();
  });

  const newProject = async (name: string, token = alpha.token): Promise<string> => {
    const created = await kit.as(token).post('/api/projects', { name });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };
  const repositoriesOf = (projectId: string): string => `/api/projects/${projectId}/repositories`;

  it('creates, reads, lists, changes and deletes a project; its name cannot change', async () => {
    const api = kit.as(alpha.token);
    const created = await api.post('/api/projects', { name: '  Web app ', description: 'The storefront' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: 'Web app', description: 'The storefront', createdAt: expect.any(String), updatedAt: expect.any(String) });
    const id = created.body.id as string;
    expect((await api.get(`/api/projects/${id}`)).body).toEqual({ ...created.body, repositories: [] });
    expect((await api.get('/api/projects')).body.projects).toContainEqual(created.body);

    expect((await api.patch(`/api/projects/${id}`, { description: null })).body).toMatchObject({ name: 'Web app', description: null });
    const renamed = await api.patch(`/api/projects/${id}`, { name: 'Other' });
    expect(renamed.status).toBe(400);
    expect(renamed.body.error).toMatchObject({ code: 'validation_failed', details: { issues: [{ path: 'name', message: expect.stringContaining('issue.project') }] } });

    expect((await api.delete(`/api/projects/${id}`)).status).toBe(204);
    expect((await api.get(`/api/projects/${id}`)).status).toBe(404);
  });

  it('keeps project names unique per workspace and refuses bad names', async () => {
    await newProject('Mobile');
    const again = await kit.as(alpha.token).post('/api/projects', { name: 'Mobile' });
    expect({ status: again.status, code: again.body.error.code }).toEqual({ status: 409, code: 'project_name_taken' });
    await newProject('Mobile', beta.token);
    for (const name of ['', '   ', 'x'.repeat(201), 'a\u0000b']) {
      expect((await kit.as(alpha.token).post('/api/projects', { name })).status).toBe(400);
    }
  });

  it('adds a worktree repository with the defaults, and a local directory one; the views name the secret, never its value', async () => {
    const projectId = await newProject('Defaults');
    const remote = await kit.as(alpha.token).post(repositoriesOf(projectId), {
      name: 'storefront',
      url: 'https://github.com/team/storefront.git',
      credential: { username: 'x-access-token', secretName: 'github-token' },
    });
    expect(remote.status).toBe(201);
    expect(remote.body).toEqual({
      id: expect.any(String),
      projectId,
      name: 'storefront',
      checkoutMode: 'worktree',
      url: 'https://github.com/team/storefront.git',
      localPath: null,
      defaultBranch: 'main',
      branchTemplate: DEFAULT_BRANCH_TEMPLATE,
      credential: { kind: 'https_token', username: 'x-access-token', secretName: 'github-token' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const local = await kit.as(alpha.token).post(repositoriesOf(projectId), {
      name: 'infra',
      checkoutMode: 'local_directory',
      localPath: '/home/me/code/infra',
      defaultBranch: 'trunk',
      branchTemplate: 'agents/{agent}/{source}/{task}',
    });
    expect(local.status).toBe(201);
    expect(local.body).toMatchObject({ checkoutMode: 'local_directory', url: null, localPath: '/home/me/code/infra', credential: null, defaultBranch: 'trunk' });

    expect((await kit.as(alpha.token).get(repositoriesOf(projectId))).body.repositories).toEqual([local.body, remote.body]);
    expect((await kit.as(alpha.token).get(`/api/projects/${projectId}`)).body.repositories).toEqual([local.body, remote.body]);
    expect((await kit.as(alpha.token).get(`${repositoriesOf(projectId)}/${remote.body.id as string}`)).body).toEqual(remote.body);
    expect(JSON.stringify((await kit.as(alpha.token).get(repositoriesOf(projectId))).body)).not.toContain('ghp_projects-int-spec-value');
  });

  it('refuses broken settings with 400 invalid_repository listing every problem, writing nothing', async () => {
    const projectId = await newProject('Refusals');
    const before = await kit.count('project_repository');
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ name: 'embedded', url: 'https://bot:ghp_x@github.com/team/app.git' }, ['url']],
      [{ name: 'token-user', url: 'https://ghp_x@github.com/team/app.git' }, ['url']],
      [{ name: 'transport', url: 'ext::sh -c evil' }, ['url']],
      [{ name: 'no-url' }, ['url']],
      [{ name: 'both', checkoutMode: 'local_directory', url: 'https://github.com/a/b.git', localPath: 'relative/dir' }, ['url', 'localPath']],
      [{ name: 'local-credential', checkoutMode: 'local_directory', localPath: '/code/app', credential: { username: 'u', secretName: 'github-token' } }, ['credential']],
      [{ name: 'ssh-credential', url: 'git@github.com:team/app.git', credential: { username: 'u', secretName: 'github-token' } }, ['credential']],
      [{ name: 'bad-branch', url: '/srv/git/app.git', defaultBranch: 'a..b', branchTemplate: 'x/{issue}/{task}' }, ['defaultBranch', 'branchTemplate']],
    ];
    for (const [body, fields] of cases) {
      const response = await kit.as(alpha.token).post(repositoriesOf(projectId), body);
      expect({ name: body['name'], status: response.status, code: response.body.error.code, fields: pluck(response.body.error.details?.problems, 'field') }).toEqual({
        name: body['name'],
        status: 400,
        code: 'invalid_repository',
        fields,
      });
    }
    for (const body of [{ name: 'Upper', url: '/srv/git/a.git' }, { name: '.git', url: '/srv/git/a.git' }, { name: 'x', url: '/srv/git/a.git', credential: { username: 'u' } }, { name: 'x', url: '/a', extra: 1 }]) {
      const response = await kit.as(alpha.token).post(repositoriesOf(projectId), body);
      expect({ body, status: response.status, code: response.body.error.code }).toEqual({ body, status: 400, code: 'validation_failed' });
    }
    const unknownSecret = await kit.as(alpha.token).post(repositoriesOf(projectId), { name: 'no-secret', url: 'https://github.com/a/b.git', credential: { username: 'u', secretName: 'missing' } });
    expect({ status: unknownSecret.status, code: unknownSecret.body.error.code }).toEqual({ status: 400, code: 'secret_not_found' });
    expect(await kit.count('project_repository')).toBe(before);
  });

  it('keeps repository names unique across the workspace’s projects, and apart from another workspace’s', async () => {
    const first = await newProject('Unique one');
    const second = await newProject('Unique two');
    expect((await kit.as(alpha.token).post(repositoriesOf(first), { name: 'shared-name', url: '/srv/git/a.git' })).status).toBe(201);
    const taken = await kit.as(alpha.token).post(repositoriesOf(second), { name: 'shared-name', url: '/srv/git/b.git' });
    expect({ status: taken.status, code: taken.body.error.code }).toEqual({ status: 409, code: 'repository_name_taken' });
    const betaProject = await newProject('Unique one', beta.token);
    expect((await kit.as(beta.token).post(repositoriesOf(betaProject), { name: 'shared-name', url: '/srv/git/a.git' })).status).toBe(201);
    // Another workspace's project is not there, and its secrets are not this one's.
    expect((await kit.as(beta.token).get(repositoriesOf(first))).status).toBe(404);
    const foreignSecret = await kit.as(beta.token).post(repositoriesOf(betaProject), { name: 'borrow', url: 'https://github.com/a/b.git', credential: { username: 'u', secretName: 'github-token' } });
    expect(foreignSecret.body.error.code).toBe('secret_not_found');
  });

  it('changes a repository as a whole: a mode switch needs its location, a bad result changes nothing', async () => {
    const projectId = await newProject('Changes');
    const created = await kit.as(alpha.token).post(repositoriesOf(projectId), { name: 'switcher', url: 'https://github.com/a/b.git' });
    const path = `${repositoriesOf(projectId)}/${created.body.id as string}`;
    const halfSwitch = await kit.as(alpha.token).patch(path, { checkoutMode: 'local_directory', localPath: '/code/b' });
    expect(halfSwitch.body.error).toMatchObject({ code: 'invalid_repository', details: { problems: [{ field: 'url' }] } });
    expect((await kit.as(alpha.token).get(path)).body).toEqual(created.body);

    const switched = await kit.as(alpha.token).patch(path, { checkoutMode: 'local_directory', localPath: '/code/b', url: null });
    expect(switched.body).toMatchObject({ checkoutMode: 'local_directory', localPath: '/code/b', url: null });
    const credentialed = await kit.as(alpha.token).patch(path, {
      checkoutMode: 'worktree',
      localPath: null,
      url: 'https://github.com/a/b.git',
      credential: { username: 'bot', secretName: 'github-token' },
      name: 'renamed',
    });
    expect(credentialed.body).toMatchObject({ name: 'renamed', credential: { kind: 'https_token', username: 'bot', secretName: 'github-token' } });
    expect((await kit.as(alpha.token).patch(path, { branchTemplate: 'x/{nope}' })).body.error.code).toBe('invalid_repository');
    expect((await kit.as(alpha.token).patch(path, {})).status).toBe(400);
  });

  it('refuses to delete a project that has repositories (409 project_not_empty), then deletes it once empty', async () => {
    const projectId = await newProject('Not empty');
    const repository = await kit.as(alpha.token).post(repositoriesOf(projectId), { name: 'blocks-delete', url: '/srv/git/a.git' });
    const refused = await kit.as(alpha.token).delete(`/api/projects/${projectId}`);
    expect({ status: refused.status, code: refused.body.error.code }).toEqual({ status: 409, code: 'project_not_empty' });
    expect((await kit.as(alpha.token).delete(`${repositoriesOf(projectId)}/${repository.body.id as string}`)).status).toBe(204);
    expect((await kit.as(alpha.token).delete(`${repositoriesOf(projectId)}/${repository.body.id as string}`)).status).toBe(404);
    expect((await kit.as(alpha.token).delete(`/api/projects/${projectId}`)).status).toBe(204);
  });

  it('closes every project and repository route to task tokens (403 task_token_forbidden)', async () => {
    const projectId = await newProject('Closed to agents');
    const repository = await kit.as(alpha.token).post(repositoriesOf(projectId), { name: 'closed', url: '/srv/git/a.git' });
    const token = queue.issueTaskToken({ taskId: 'task-projects', workspaceId: alpha.id, agentId: 'agent-projects', issueId: 'issue-projects' });
    const item = `${repositoriesOf(projectId)}/${repository.body.id as string}`;
    for (const [method, path, body] of [
      ['GET', '/api/projects', undefined],
      ['POST', '/api/projects', { name: 'From an agent' }],
      ['GET', `/api/projects/${projectId}`, undefined],
      ['PATCH', `/api/projects/${projectId}`, { description: 'x' }],
      ['DELETE', `/api/projects/${projectId}`, undefined],
      ['GET', repositoriesOf(projectId), undefined],
      ['POST', repositoriesOf(projectId), { name: 'agent-repo', url: '/srv/git/x.git' }],
      ['GET', item, undefined],
      ['PATCH', item, { url: '/srv/git/y.git' }],
      ['DELETE', item, undefined],
    ] as const) {
      const response = await kit.request(method, path, { token, body });
      expect({ method, path, status: response.status, code: response.body?.error?.code }).toEqual({ method, path, status: 403, code: 'task_token_forbidden' });
    }
  });
});
