import { randomUUID } from 'node:crypto';
import { separateAgentSecrets, uuidv7 } from '@switchyard/contracts';
import { SECRET_SAMPLES } from '@switchyard/redaction';
import { sampleAgentSnapshot } from '@switchyard/testing';
import { GatewayTestKit, pluck, type TestWorkspace } from '../../gateway-test.spec-helper';

describe('task reads: list, detail, timeline, usage (real NATS + Postgres)', () => {
  let kit: GatewayTestKit;
  let alpha: TestWorkspace;
  let beta: TestWorkspace;

  beforeAll(async () => {
    kit = await GatewayTestKit.start();
    alpha = await kit.workspace('Alpha');
    beta = await kit.workspace('Beta');
  });
  afterAll(async () => {
    await kit?.stop();
  });

  const minutesAgo = (minutes: number): Date => new Date(Date.now() - minutes * 60_000);
  const idsOf = (body: unknown): unknown[] => pluck((body as { tasks: unknown }).tasks, 'taskId');

  async function insertMessage(taskId: string, seq: number, fields: Record<string, unknown> = {}): Promise<void> {
    const row = { type: 'text', content: `message ${seq}`, tool: null, call_id: null, input: null, output: null, tool_status: null, error_code: null, notice_code: null, ...fields };
    await kit.query(
      `insert into task_message (id, task_id, seq, attempt, type, tool, call_id, content, input, output, tool_status, error_code, notice_code, created_at)
       values ($1, $2, $3, 1, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, now())`,
      [randomUUID(), taskId, seq, row.type, row.tool, row.call_id, row.content, row.input === null ? null : JSON.stringify(row.input), row.output, row.tool_status, row.error_code, row.notice_code],
    );
  }

  describe('GET /api/tasks', () => {
    let tasks: Record<string, string>;

    beforeAll(async () => {
      const workspaceId = alpha.id;
      tasks = {
        oldest: await kit.insertTask({ workspaceId, status: 'completed', enqueuedAt: minutesAgo(50), enqueued: { agentId: 'agent-a', runtimeId: 'runtime-1' } }),
        failed: await kit.insertTask({ workspaceId, status: 'failed', failureReason: 'agent_error', enqueuedAt: minutesAgo(40), enqueued: { agentId: 'agent-b', runtimeId: 'runtime-1' } }),
        running: await kit.insertTask({ workspaceId, status: 'running', enqueuedAt: minutesAgo(30), enqueued: { agentId: 'agent-a', runtimeId: 'runtime-2' } }),
        queued: await kit.insertTask({ workspaceId, status: 'queued', enqueuedAt: minutesAgo(20), enqueued: { agentId: 'agent-b', runtimeId: 'runtime-2' } }),
        newest: await kit.insertTask({ workspaceId, status: 'queued', enqueuedAt: minutesAgo(10), enqueued: { agentId: 'agent-a', runtimeId: 'runtime-1' } }),
      };
      await kit.insertTask({ workspaceId: beta.id, status: 'queued', enqueued: { agentId: 'agent-a', runtimeId: 'runtime-1' } });
    });

    it('lists the workspace’s tasks, newest first', async () => {
      const response = await kit.as(alpha.token).get('/api/tasks');
      expect(response.status).toBe(200);
      expect(idsOf(response.body)).toEqual([tasks.newest, tasks.queued, tasks.running, tasks.failed, tasks.oldest]);
      expect(response.body.nextCursor).toBeNull();
      expect(response.body.tasks[3]).toEqual({
        taskId: tasks.failed,
        status: 'failed',
        agentId: 'agent-b',
        runtimeId: 'runtime-1',
        sourceKind: 'quick_create',
        issueId: null,
        chatSessionId: null,
        priority: 0,
        attempt: 1,
        maxAttempts: 2,
        cancelRequested: false,
        failureReason: 'agent_error',
        retryOfTaskId: null,
        repositories: [],
        connection: null,
        reconnectingSince: null,
        enqueuedAt: expect.any(String),
        terminalAt: expect.any(String),
        updatedAt: expect.any(String),
      });
    });

    it('filters by status (several at once), agent and runtime', async () => {
      expect(idsOf((await kit.as(alpha.token).get('/api/tasks?status=queued')).body)).toEqual([tasks.newest, tasks.queued]);
      expect(idsOf((await kit.as(alpha.token).get('/api/tasks?status=running,failed')).body)).toEqual([tasks.running, tasks.failed]);
      expect(idsOf((await kit.as(alpha.token).get('/api/tasks?agentId=agent-a')).body)).toEqual([tasks.newest, tasks.running, tasks.oldest]);
      expect(idsOf((await kit.as(alpha.token).get('/api/tasks?agentId=agent-a&runtimeId=runtime-1')).body)).toEqual([tasks.newest, tasks.oldest]);
    });

    it('pages with a cursor, every task once', async () => {
      const seen: unknown[] = [];
      let path = '/api/tasks?limit=2';
      for (let page = 0; page < 5; page += 1) {
        const body = (await kit.as(alpha.token).get(path)).body;
        seen.push(...idsOf(body));
        if (!body.nextCursor) break;
        path = `/api/tasks?limit=2&cursor=${encodeURIComponent(body.nextCursor as string)}`;
      }
      expect(seen).toEqual([tasks.newest, tasks.queued, tasks.running, tasks.failed, tasks.oldest]);
    });

    it('refuses bad filters with 400', async () => {
      for (const query of ['status=sleeping', 'limit=0', 'limit=201', 'limit=ten', 'cursor=garbage', 'colour=blue']) {
        const response = await kit.as(alpha.token).get(`/api/tasks?${query}`);
        expect({ query, status: response.status, code: response.body.error?.code }).toEqual({ query, status: 400, code: 'validation_failed' });
      }
    });

    it('shows another workspace none of them', async () => {
      const betaTasks = (await kit.as(beta.token).get('/api/tasks')).body.tasks as Array<{ taskId: string }>;
      expect(betaTasks).toHaveLength(1);
      expect(Object.values(tasks)).not.toContain(betaTasks[0]!.taskId);
    });
  });

  describe('GET /api/tasks/:id', () => {
    it('shows status, attempt, timestamps, the prompt and the failure, never the agent’s env', async () => {
      const taskId = await kit.insertTask({ workspaceId: alpha.id, status: 'failed', failureReason: 'agent_error', enqueued: { prompt: 'Refactor the parser' } });
      await kit.appendTaskEvent('task.started', { taskId, attempt: 1, daemonId: 'daemon-1', runtimeId: 'runtime-direct', workDir: '/w', resumedSessionId: null, leaseExpiresAt: new Date().toISOString() });
      await kit.appendTaskEvent('task.failed', { taskId, attempt: 1, reason: 'agent_error', message: 'exit code 2', sessionId: null, detail: null, repositories: [] });
      const response = await kit.as(alpha.token).get(`/api/tasks/${taskId}`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        taskId,
        status: 'failed',
        attempt: 1,
        prompt: 'Refactor the parser',
        agentName: 'Test agent',
        source: { kind: 'quick_create' },
        forceFreshSession: false,
        failureReason: 'agent_error',
        failure: { reason: 'agent_error', message: 'exit code 2' },
        cancellation: null,
        startedAt: expect.any(String),
        terminalAt: expect.any(String),
      });
      expect(JSON.stringify(response.body)).not.toContain('do-not-leak');
    });

    it('redacts the prompt and the failure message as the timeline does: secret patterns and the agent’s own secret values', async () => {
      // Given a prompt quoting an Anthropic key, a GitHub token and the value of one of the agent's env variables
      const anthropicKey = SECRET_SAMPLES.find((sample) => sample.kind === 'anthropic_api_key')!.secret;
      const githubToken = SECRET_SAMPLES.find((sample) => sample.kind === 'github_token' && sample.secret.startsWith('ghp_'))!.secret;
      const passphrase = 'correct horse battery staple';
      const mcpHeader = 'Bearer mcp-header-value-1234';
      const agent = sampleAgentSnapshot({ env: { DEPLOY_PASSPHRASE: passphrase, DEBUG: 'true' }, mcpConfig: { servers: { docs: { url: 'https://docs.example/mcp', headers: { authorization: mcpHeader } } } } });
      const prompt = `Use ${anthropicKey} for the API, push with ${githubToken}, unlock with "${passphrase}", call docs with ${mcpHeader}. Debug is true.`;
      const taskId = await kit.insertTask({ workspaceId: alpha.id, status: 'failed', failureReason: 'agent_error', enqueued: { prompt, agent } });
      await kit.appendTaskEvent('task.failed', { taskId, attempt: 1, reason: 'agent_error', message: `401 from the API for key ${anthropicKey}`, sessionId: null, detail: null, repositories: [] });

      // When a client reads the task, alone and in the list
      const detail = await kit.as(alpha.token).get(`/api/tasks/${taskId}`);
      const list = await kit.as(alpha.token).get(`/api/tasks?agentId=agent-direct&status=failed`);

      // Then no secret comes back: each is its redaction marker, the rest of the text stays
      expect(detail.status).toBe(200);
      expect(detail.body.prompt).toBe(
        'Use [REDACTED:anthropic_api_key] for the API, push with [REDACTED:github_token], unlock with "[REDACTED:known_secret]", call docs with [REDACTED:known_secret]. Debug is true.',
      );
      expect(detail.body.failure).toEqual({ reason: 'agent_error', message: '401 from the API for key [REDACTED:anthropic_api_key]' });
      for (const body of [detail.body, list.body]) {
        for (const secret of [anthropicKey, githubToken, passphrase, mcpHeader]) expect(JSON.stringify(body)).not.toContain(secret);
      }
      // The record keeps the prompt as written: a rerun runs what was asked.
      expect((await kit.query<{ prompt: string }>(`select payload -> 'payload' ->> 'prompt' as prompt from outbox_event where aggregate_id = $1 and type = 'task.enqueued'`, [taskId]))[0]?.prompt).toBe(prompt);
    });

    it('redacts with the agent’s current secret values when the task’s event holds references only', async () => {
      // Given an agent whose env holds a secret, and a task whose event names it by reference (as the queue writes it)
      const secret = 'current-agent-secret-value-42';
      const { runtimeId } = await kit.registerRuntime(alpha.id);
      const agentId = (await kit.as(alpha.token).post('/api/agents', { name: 'Referenced', runtimeId, env: { DEPLOY_KEY: secret } })).body.id as string;
      const referenced = separateAgentSecrets(sampleAgentSnapshot({ env: { DEPLOY_KEY: secret } }), 'bundle-1').agent;
      const taskId = await kit.insertTask({ workspaceId: alpha.id, enqueued: { agentId, agent: referenced, prompt: `deploy with ${secret}` } });
      expect(JSON.stringify(referenced)).not.toContain(secret);

      // When a client reads the task, then no secret comes back
      const detail = await kit.as(alpha.token).get(`/api/tasks/${taskId}`);
      expect(detail.body.prompt).toBe('deploy with [REDACTED:known_secret]');
    });

    it('shows a task waiting for its local directory, and what the latest attempt left in its repositories, alone and in the list', async () => {
      // Given a task the queue holds waiting, and one whose attempt reported its repositories (as the queue projects them)
      const waiting = await kit.insertTask({ workspaceId: alpha.id, status: 'waiting_local_directory', enqueued: { agentId: 'agent-repos' } });
      const done = await kit.insertTask({ workspaceId: alpha.id, status: 'completed', enqueued: { agentId: 'agent-repos' } });
      const worktree = {
        name: 'switchyard',
        checkoutMode: 'worktree',
        branch: 'switchyard/quick-create/0197a5c3',
        baseCommit: 'a'.repeat(40),
        headCommit: 'b'.repeat(40),
        filesChanged: 2,
        insertions: 12,
        deletions: 3,
        uncommittedFiles: 0,
      };
      await kit.query('update agent_task_queue set repositories = $2::jsonb where task_id = $1', [done, JSON.stringify([worktree])]);

      // When a client reads them
      const detail = await kit.as(alpha.token).get(`/api/tasks/${done}`);
      const list = await kit.as(alpha.token).get('/api/tasks?agentId=agent-repos');
      const waitingOnly = await kit.as(alpha.token).get('/api/tasks?agentId=agent-repos&status=waiting_local_directory');

      // Then the state and the repositories are there
      expect(detail.body).toMatchObject({ taskId: done, status: 'completed', repositories: [worktree] });
      expect(list.body.tasks).toEqual([
        expect.objectContaining({ taskId: done, repositories: [worktree] }),
        expect.objectContaining({ taskId: waiting, status: 'waiting_local_directory', repositories: [] }),
      ]);
      expect(idsOf(waitingOnly.body)).toEqual([waiting]);
    });

    it('shows a live attempt whose daemon went silent as reconnecting, in its grace, and every other task as it is', async () => {
      // Given two running tasks on runtimes the queue heard from, one of them since judged offline, and a finished one on that runtime
      const silentRuntime = `runtime-${uuidv7()}`;
      const heardRuntime = `runtime-${uuidv7()}`;
      const silent = await kit.insertTask({ workspaceId: alpha.id, status: 'running', enqueued: { agentId: 'agent-grace', runtimeId: silentRuntime } });
      const heard = await kit.insertTask({ workspaceId: alpha.id, status: 'running', enqueued: { agentId: 'agent-grace', runtimeId: heardRuntime } });
      const finished = await kit.insertTask({ workspaceId: alpha.id, status: 'completed', enqueued: { agentId: 'agent-grace', runtimeId: silentRuntime } });
      const offlineSince = new Date('2026-12-03T10:00:00.000Z');
      await kit.query(
        `insert into runtime_presence (runtime_id, daemon_id, last_heartbeat_at, offline_since) values ($1, 'daemon-grace', $3, $3), ($2, 'daemon-grace', now(), null)`,
        [silentRuntime, heardRuntime, offlineSince],
      );

      // When a client reads them
      const list = await kit.as(alpha.token).get('/api/tasks?agentId=agent-grace');
      const detail = await kit.as(alpha.token).get(`/api/tasks/${silent}`);

      // Then only the silent one's live attempt is reconnecting, since the queue judged its runtime offline
      const connections = Object.fromEntries((list.body.tasks as Array<{ taskId: string; connection: string | null; reconnectingSince: string | null }>).map((task) => [task.taskId, [task.connection, task.reconnectingSince]]));
      expect(connections).toEqual({ [silent]: ['reconnecting', offlineSince.toISOString()], [heard]: ['connected', null], [finished]: [null, null] });
      expect(detail.body).toMatchObject({ status: 'running', connection: 'reconnecting', reconnectingSince: offlineSince.toISOString() });
    });

    it('is a 404 for another workspace and for an unknown id', async () => {
      const taskId = await kit.insertTask({ workspaceId: alpha.id });
      expect((await kit.as(beta.token).get(`/api/tasks/${taskId}`)).status).toBe(404);
      expect((await kit.as(alpha.token).get('/api/tasks/no-such-task')).body.error.code).toBe('not_found');
    });
  });

  describe('GET /api/tasks/:id/messages', () => {
    let taskId: string;

    beforeAll(async () => {
      taskId = await kit.insertTask({ workspaceId: alpha.id, status: 'running' });
      await insertMessage(taskId, 0, { type: 'thinking', content: 'hmm' });
      await insertMessage(taskId, 1, { type: 'tool_use', tool: 'bash', call_id: 'call-1', content: null, input: { command: 'ls' } });
      await insertMessage(taskId, 2, { type: 'tool_result', tool: 'bash', call_id: 'call-1', content: null, output: 'a.txt', tool_status: 'ok' });
      // seq 3 was a status message: not a timeline row, so the view has a gap there.
      await insertMessage(taskId, 4, { type: 'text', content: 'Done.' });
      await insertMessage(taskId, 5, { type: 'error', content: 'rate limited', error_code: 'provider_rate_limit' });
    });

    it('replays the timeline in seq order', async () => {
      const response = await kit.as(alpha.token).get(`/api/tasks/${taskId}/messages`);
      expect(response.status).toBe(200);
      expect(pluck(response.body.messages, 'seq')).toEqual([0, 1, 2, 4, 5]);
      expect(response.body).toMatchObject({ nextSince: 5, hasMore: false });
      expect(response.body.messages[1]).toEqual({
        id: expect.any(String),
        taskId,
        seq: 1,
        attempt: 1,
        type: 'tool_use',
        tool: 'bash',
        callId: 'call-1',
        content: null,
        input: { command: 'ls' },
        output: null,
        outputTruncated: false,
        toolStatus: null,
        errorCode: null,
        noticeCode: null,
        createdAt: expect.any(String),
      });
      expect(response.body.messages[4]).toMatchObject({ type: 'error', content: 'rate limited', errorCode: 'provider_rate_limit' });
    });

    it('shows a daemon notice as a row of its own: its code, its sentence in content', async () => {
      const noticed = await kit.insertTask({ workspaceId: alpha.id, status: 'completed' });
      await insertMessage(noticed, 0, { type: 'text', content: 'Done.' });
      await insertMessage(noticed, 1, { type: 'notice', content: 'api: branch switchyard/task-1 from 1a2b3c4 to 5d6e7f8, 2 files changed.', notice_code: 'repository_work' });

      const response = await kit.as(alpha.token).get(`/api/tasks/${noticed}/messages`);

      expect(response.status).toBe(200);
      expect(response.body.messages[0]).toMatchObject({ type: 'text', noticeCode: null });
      expect(response.body.messages[1]).toEqual({
        id: expect.any(String),
        taskId: noticed,
        seq: 1,
        attempt: 1,
        type: 'notice',
        tool: null,
        callId: null,
        content: 'api: branch switchyard/task-1 from 1a2b3c4 to 5d6e7f8, 2 files changed.',
        input: null,
        output: null,
        outputTruncated: false,
        toolStatus: null,
        errorCode: null,
        noticeCode: 'repository_work',
        createdAt: expect.any(String),
      });
      // And the OpenAPI document says so.
      const document = (await kit.request('GET', '/api/docs-json')).body;
      const row = document.paths['/api/tasks/{id}/messages'].get.responses['200'].content['application/json'].schema.properties.messages.items;
      expect(row.properties.type.enum).toContain('notice');
      expect(row.properties.noticeCode.description).toContain('repository_work');
    });

    it('continues after `since` (exclusive) in pages of `limit`', async () => {
      const first = (await kit.as(alpha.token).get(`/api/tasks/${taskId}/messages?since=0&limit=2`)).body;
      expect(pluck(first.messages, 'seq')).toEqual([1, 2]);
      expect(first).toMatchObject({ nextSince: 2, hasMore: true });
      const second = (await kit.as(alpha.token).get(`/api/tasks/${taskId}/messages?since=${first.nextSince as number}&limit=2`)).body;
      expect(pluck(second.messages, 'seq')).toEqual([4, 5]);
      const caughtUp = (await kit.as(alpha.token).get(`/api/tasks/${taskId}/messages?since=5`)).body;
      expect(caughtUp).toEqual({ messages: [], nextSince: 5, hasMore: false });
    });

    it('opens the newest page with `before=end` and pages back with `before`, still in seq order', async () => {
      const newest = (await kit.as(alpha.token).get(`/api/tasks/${taskId}/messages?before=end&limit=2`)).body;
      expect(pluck(newest.messages, 'seq')).toEqual([4, 5]);
      expect(newest).toMatchObject({ nextSince: 5, hasMore: false });
      const earlier = (await kit.as(alpha.token).get(`/api/tasks/${taskId}/messages?before=4&limit=2`)).body;
      expect(pluck(earlier.messages, 'seq')).toEqual([1, 2]);
      expect(earlier).toMatchObject({ nextSince: 2, hasMore: true });
      expect(earlier.messages[0]).toMatchObject({ type: 'tool_use', input: { command: 'ls' } });
      expect((await kit.as(alpha.token).get(`/api/tasks/${taskId}/messages?before=0`)).body).toEqual({ messages: [], nextSince: -1, hasMore: true });
      expect((await kit.as(beta.token).get(`/api/tasks/${taskId}/messages?before=end`)).status).toBe(404);
    });

    it('refuses a limit above 1000, a bad since or before, or both, with 400', async () => {
      for (const query of ['limit=1001', 'limit=0', 'since=-2', 'since=abc', 'before=-1', 'before=last', 'since=1&before=3']) {
        const response = await kit.as(alpha.token).get(`/api/tasks/${taskId}/messages?${query}`);
        expect({ query, status: response.status }).toEqual({ query, status: 400 });
      }
    });

    it('is a 404 for another workspace', async () => {
      const response = await kit.as(beta.token).get(`/api/tasks/${taskId}/messages`);
      expect(response.status).toBe(404);
      expect(JSON.stringify(response.body)).not.toContain('Done.');
    });
  });

  describe('GET /api/tasks/:id/usage', () => {
    it('reports usage per attempt and model, with totals', async () => {
      const taskId = await kit.insertTask({ workspaceId: alpha.id, status: 'completed' });
      for (const [attempt, model, input, output, cacheRead] of [
        [1, 'claude-sonnet-4-5', 1200, 300, 800],
        [1, 'claude-haiku-4-5', 100, 20, 0],
        [2, 'claude-sonnet-4-5', 50, 10, 0],
      ] as const) {
        await kit.query(
          `insert into task_usage (task_id, attempt, provider, model, input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reported_seq)
           values ($1, $2, 'anthropic', $3, $4, $5, $6, 0, 9)`,
          [taskId, attempt, model, input, output, cacheRead],
        );
      }
      const response = await kit.as(alpha.token).get(`/api/tasks/${taskId}/usage`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        taskId,
        usage: [
          { attempt: 1, provider: 'anthropic', model: 'claude-haiku-4-5', inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
          { attempt: 1, provider: 'anthropic', model: 'claude-sonnet-4-5', inputTokens: 1200, outputTokens: 300, cacheReadTokens: 800, cacheWriteTokens: 0 },
          { attempt: 2, provider: 'anthropic', model: 'claude-sonnet-4-5', inputTokens: 50, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 },
        ],
        totals: { inputTokens: 1350, outputTokens: 330, cacheReadTokens: 800, cacheWriteTokens: 0 },
      });
      expect((await kit.as(beta.token).get(`/api/tasks/${taskId}/usage`)).status).toBe(404);
    });

    it('is empty for a task without usage yet', async () => {
      const taskId = await kit.insertTask({ workspaceId: alpha.id });
      expect((await kit.as(alpha.token).get(`/api/tasks/${taskId}/usage`)).body).toEqual({
        taskId,
        usage: [],
        totals: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      });
    });
  });
});
