import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';
import { SERVICE_PUBLISHERS, STREAM_CATALOG, subjects } from '@switchyard/contracts';
import { readStream } from '@switchyard/messaging/testing';
import { startSystemProcesses, type SystemProcesses } from '@switchyard/testing';
import { gatewayCaller, until } from './gateway-e2e.spec-helper';

const DAEMON_ID = 'daemon-task-token-e2e';
const RUNTIME_ID = `${DAEMON_ID}-claude-code`;
const TOKEN = 'sy_task-token-e2e-token-task-token-e2e-01';
const COMMENT = 'Fixed the flaky login test; commented through yard';

/**
 * An agent acting back on the platform, every part real: queue, session-resume, transcript and
 * gateway as built processes on real NATS and Postgres, a daemon running the real Claude Code on
 * the mock model. The issue's scenario marker makes Claude Code run a shell command that keeps
 * its task token in a work-dir file, comments through `yard` (the shim the daemon put on its
 * PATH), and tries another issue with the same live token. The token is then tried again, from
 * here, once the task has ended.
 */
describe('an agent comments on its issue with its task token through yard (real Claude Code)', () => {
  let system: SystemProcesses;
  let gatewayUrl = '';
  let agentId = '';

  const call = gatewayCaller(() => gatewayUrl, TOKEN);

  beforeAll(async () => {
    system = await startSystemProcesses({ services: ['queue', 'session-resume', 'transcript', 'gateway'], gatewayToken: TOKEN });
    ({ gatewayUrl } = system);
    await system.startDaemon({ daemonId: DAEMON_ID });
    await until(async () => ((await call('GET', `/api/runtimes/${RUNTIME_ID}`)).status === 200 ? true : undefined), 'the Claude runtime is listed', 60_000);
    const agent = await call('POST', '/api/agents', { body: { name: 'Claude', runtimeId: RUNTIME_ID, env: { ANTHROPIC_BASE_URL: system.model.url, ANTHROPIC_API_KEY: 'sk-mock-not-a-secret' } } });
    expect(agent.status).toBe(201);
    agentId = agent.body.id;
  }, 240_000);

  afterAll(async () => {
    await system?.stop();
  });

  it('runs `yard issue comment` through Claude Code’s shell: the comment is the agent’s; the token is refused for another issue while live and everywhere once the task ended', async () => {
    const other = await call('POST', '/api/issues', { body: { title: 'Another issue, not the agent’s' } });
    expect(other.status).toBe(201);
    const command = [
      'printf %s "$SWITCHYARD_TOKEN" > task-token.txt',
      `yard issue comment "${COMMENT}" > comment.out 2>&1`,
      `yard issue show --issue ${other.body.id} > other-issue.out 2>&1`,
      'echo "exit $?" >> other-issue.out',
    ].join('; ');
    const issue = await call('POST', '/api/issues', { body: { title: 'Flaky login test', description: `Please fix it. [[scenario:tool-command ${command}]]`, assigneeAgentId: agentId } });
    expect(issue.status).toBe(201);
    const taskId: string = issue.body.tasks[0].taskId;

    const task = await until(async () => {
      const read = (await call('GET', `/api/tasks/${taskId}`)).body as { status?: string } | undefined;
      return ['completed', 'failed', 'cancelled'].includes(read?.status ?? '') ? read : undefined;
    }, `task ${taskId} ends`);
    expect(task).toMatchObject({ status: 'completed' });

    const [started] = (await readStream(system.connection, STREAM_CATALOG.TASK_EVENTS.name))
      .filter((message) => message.subject === subjects.taskEvent({ type: 'task.started', taskId, publisher: SERVICE_PUBLISHERS.queue }))
      .map((message) => JSON.parse(message.text) as { payload: { workDir: string } });
    const workDir = started!.payload.workDir;
    const taskToken = await readFile(path.join(workDir, 'task-token.txt'), 'utf8');
    expect(taskToken).toMatch(/^syt_[\w-]{43}$/);
    expect(await readFile(path.join(workDir, 'comment.out'), 'utf8')).toContain(`commented on ${issue.body.id}`);

    // The comment sits under the issue, authored by the agent, as the API answers it.
    const { comments } = (await call('GET', `/api/issues/${issue.body.id}/comments`)).body as { comments: Array<{ author: { kind: string; id: string }; body: string }> };
    expect(comments).toContainEqual(expect.objectContaining({ author: { kind: 'agent', id: agentId }, body: COMMENT }));
    const database = new Client({ connectionString: system.databaseUrl });
    await database.connect();
    try {
      const { rows } = await database.query<{ task_id: string }>('select task_id from issue_comment where issue_id = $1 and body = $2', [issue.body.id, COMMENT]);
      expect(rows).toEqual([{ task_id: taskId }]);
    } finally {
      await database.end();
    }

    // While the attempt lived, the same token was refused another issue (yard said so, with the API's code).
    const otherIssueAnswer = await readFile(path.join(workDir, 'other-issue.out'), 'utf8');
    expect(otherIssueAnswer).toContain('task_token_out_of_scope');
    expect(otherIssueAnswer).toContain('HTTP 403');
    expect(otherIssueAnswer).toContain('exit 1');
    expect(otherIssueAnswer).not.toContain('Another issue, not the agent’s');

    // The task ended: the token is refused on its own issue and everywhere else.
    for (const route of [`/api/issues/${issue.body.id}`, `/api/issues/${issue.body.id}/comments`, `/api/issues/${other.body.id}`]) {
      const refused = await call('GET', route, { token: taskToken });
      expect({ route, status: refused.status, code: refused.body?.error?.code }).toEqual({ route, status: 401, code: 'task_token_inactive' });
    }
    const lateComment = await call('POST', `/api/issues/${issue.body.id}/comments`, { token: taskToken, body: { body: 'too late' } });
    expect(lateComment.status).toBe(401);

    // The token's value reached neither the timeline nor the task's events.
    const timeline = await until(async () => {
      const { messages } = (await call('GET', `/api/tasks/${taskId}/messages`)).body as { messages: unknown[] };
      return messages.some((message) => JSON.stringify(message).includes('yard issue comment')) ? messages : undefined;
    }, `task ${taskId}'s shell call is projected`, 30_000);
    expect(JSON.stringify(timeline)).not.toContain(taskToken);
    const taskEvents = (await readStream(system.connection, STREAM_CATALOG.TASK_EVENTS.name)).map((message) => message.text);
    expect(taskEvents.some((text) => text.includes(taskToken))).toBe(false);
  }, 300_000);
});
