import { DEFAULT_BRANCH_TEMPLATE, type CommandOf, type RepositorySnapshot } from '@switchyard/contracts';
import { generateSecretKey, parseSecretKeys, secretKeyring } from '@switchyard/persistence';
import { GatewayTestKit, type TestWorkspace } from '../../gateway-test.spec-helper';
import { FakeQueue } from '../tasks/fake-queue.spec-helper';

describe('repositories resolved into the agent snapshot at enqueue (real NATS + Postgres, a fake queue responder)', () => {
  let kit: GatewayTestKit;
  let queue: FakeQueue;
  let alpha: TestWorkspace;
  let beta: TestWorkspace;
  let agentId: string;
  let betaAgentId: string;
  let secretId: string;
  const TOKEN_VALUE = 'ghp_task-repositories-int-spec-0123456789';

  const lastEnqueued = (): CommandOf<'task.enqueue'> => queue.enqueued.at(-1)!;
  const repositoriesSent = (): RepositorySnapshot[] => lastEnqueued().payload.agent.repositories;
  const names = (repositories: RepositorySnapshot[]): Array<[string, boolean]> => repositories.map((repository) => [repository.name, repository.checkoutAtStart]);

  beforeAll(async () => {
    kit = await GatewayTestKit.start({ GATEWAY_QUEUE_TIMEOUT_MS: '1000' });
    queue = new FakeQueue(kit);
    queue.start();
    alpha = await kit.workspace('Alpha');
    beta = await kit.workspace('Beta');
    const api = kit.as(alpha.token);
    agentId = (await api.post('/api/agents', { name: 'Fixer', runtimeId: (await kit.registerRuntime(alpha.id)).runtimeId })).body.id;
    betaAgentId = (await kit.as(beta.token).post('/api/agents', { name: 'Fixer', runtimeId: (await kit.registerRuntime(beta.id)).runtimeId })).body.id;
    secretId = (await api.post('/api/secrets', { name: 'github-token', value: TOKEN_VALUE })).body.id;
    const storefront = (await api.post('/api/projects', { name: 'Storefront' })).body.id as string;
    const other = (await api.post('/api/projects', { name: 'Other' })).body.id as string;
    for (const [projectId, body] of [
      [storefront, { name: 'web', url: 'https://github.com/team/web.git', branchTemplate: 'agents/{agent}/{task}', credential: { username: 'x-access-token', secretName: 'github-token' } }],
      [storefront, { name: 'api', url: 'git@github.com:team/api.git', defaultBranch: 'trunk' }],
      [other, { name: 'docs', checkoutMode: 'local_directory', localPath: '/home/me/docs' }],
    ] as const) {
      expect((await api.post(`/api/projects/${projectId}/repositories`, body)).status).toBe(201);
    }
  });
  afterAll(async () => {
    await queue?.stop();
    await kit?.stop();
  });

  it('gives an issue of a project that project’s repositories, checked out at start, the credential’s secret in clear for the queue to seal', async () => {
    const issue = await kit.as(alpha.token).post('/api/issues', { title: 'Fix checkout', project: 'Storefront', assigneeAgentId: agentId });
    expect(issue.status).toBe(201);
    expect(lastEnqueued().payload.source).toMatchObject({ kind: 'issue', issueId: issue.body.id });
    expect(repositoriesSent()).toEqual([
      { name: 'api', checkoutMode: 'worktree', url: 'git@github.com:team/api.git', localPath: null, defaultBranch: 'trunk', branchTemplate: DEFAULT_BRANCH_TEMPLATE, credential: null, checkoutAtStart: true },
      {
        name: 'web',
        checkoutMode: 'worktree',
        url: 'https://github.com/team/web.git',
        localPath: null,
        defaultBranch: 'main',
        branchTemplate: 'agents/{agent}/{task}',
        credential: { kind: 'https_token', username: 'x-access-token', secret: TOKEN_VALUE },
        checkoutAtStart: true,
      },
    ]);

    // A comment mentioning the agent on that issue, and a rerun of the finished task: the same project.
    expect((await kit.as(alpha.token).post(`/api/issues/${issue.body.id as string}/comments`, { body: 'And the cart', mentionAgentIds: [agentId] })).status).toBe(201);
    expect(names(repositoriesSent())).toEqual([['api', true], ['web', true]]);
    const taskId = issue.body.tasks[0].taskId as string;
    await kit.setTaskStatus(taskId, 'completed');
    expect((await kit.as(alpha.token).post(`/api/tasks/${taskId}/rerun`)).status).toBe(201);
    expect(lastEnqueued().payload.source).toMatchObject({ kind: 'issue', trigger: 'rerun' });
    expect(names(repositoriesSent())).toEqual([['api', true], ['web', true]]);
  });

  it('offers every repository of the workspace, on request, to a task without a known project', async () => {
    const everything: Array<[string, boolean]> = [['api', false], ['docs', false], ['web', false]];
    await kit.as(alpha.token).post('/api/issues', { title: 'No project', assigneeAgentId: agentId });
    expect(names(repositoriesSent())).toEqual(everything);
    await kit.as(alpha.token).post('/api/issues', { title: 'Unknown project', project: 'Nobody made this', assigneeAgentId: agentId });
    expect(names(repositoriesSent())).toEqual(everything);
    await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: 'Quick look' });
    expect(lastEnqueued().payload.source.kind).toBe('quick_create');
    expect(names(repositoriesSent())).toEqual(everything);
    const session = await kit.as(alpha.token).post('/api/chat-sessions', { agentId });
    expect((await kit.as(alpha.token).post(`/api/chat-sessions/${session.body.id as string}/messages`, { body: 'Which repo has the cart?' })).status).toBe(201);
    expect(lastEnqueued().payload.source.kind).toBe('chat');
    expect(names(repositoriesSent())).toEqual(everything);
    expect(repositoriesSent().find((repository) => repository.name === 'web')?.credential?.secret).toBe(TOKEN_VALUE);
  });

  it('gives nothing of one workspace to another’s tasks', async () => {
    await kit.as(beta.token).post('/api/projects', { name: 'Storefront' });
    await kit.as(beta.token).post('/api/issues', { title: 'Beta issue', project: 'Storefront', assigneeAgentId: betaAgentId });
    expect(lastEnqueued().payload.workspaceId).toBe(beta.id);
    expect(repositoriesSent()).toEqual([]);
    await kit.as(beta.token).post('/api/tasks', { agentId: betaAgentId, prompt: 'Anything?' });
    expect(repositoriesSent()).toEqual([]);
  });

  it('redacts the credential’s secret from the task text clients read', async () => {
    const created = await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: `Use ${TOKEN_VALUE} to push` });
    expect(created.status).toBe(201);
    const detail = await kit.as(alpha.token).get(`/api/tasks/${created.body.taskId as string}`);
    expect(detail.body.prompt).toBe('Use [REDACTED:known_secret] to push');
    expect(JSON.stringify(detail.body)).not.toContain(TOKEN_VALUE);
  });

  it('enqueues nothing when a credential’s secret does not open: a typed error naming the repository and secret', async () => {
    const [{ sealed_value: sealed }] = (await kit.query<{ sealed_value: string }>('select sealed_value from workspace_secret where id = $1', [secretId])) as [{ sealed_value: string }];
    const lostKey = secretKeyring(parseSecretKeys(generateSecretKey()));
    await kit.query('update workspace_secret set sealed_value = $2 where id = $1', [secretId, lostKey.seal('workspace secret value', TOKEN_VALUE)]);
    try {
      const sent = queue.enqueued.length;
      const refused = await kit.as(alpha.token).post('/api/tasks', { agentId, prompt: 'Push it' });
      expect(refused.status).toBe(500);
      expect(refused.body.error).toEqual({
        code: 'repository_secret_unreadable',
        message: expect.stringMatching(/^the credential secret "github-token" of repository "web" does not open: .*; nothing was enqueued$/),
        details: { repository: 'web', secretName: 'github-token' },
      });
      // An issue is saved; its task is not sent, and the answer says how to send it again.
      const issue = await kit.as(alpha.token).post('/api/issues', { title: 'Saved anyway', project: 'Storefront', assigneeAgentId: agentId });
      expect(issue.body.error).toMatchObject({ code: 'repository_secret_unreadable', details: { saved: { kind: 'issue' }, pendingTriggers: 1 } });
      expect(queue.enqueued.length).toBe(sent);
      // A project without that repository still runs.
      await kit.as(alpha.token).post('/api/issues', { title: 'Docs only', project: 'Other', assigneeAgentId: agentId });
      expect(names(repositoriesSent())).toEqual([['docs', true]]);
    } finally {
      await kit.query('update workspace_secret set sealed_value = $2 where id = $1', [secretId, sealed]);
    }
  });
});
