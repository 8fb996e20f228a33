import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVICE_PUBLISHERS, STREAM_CATALOG, subjects } from '@switchyard/contracts';
import type { MessagingConnection } from '@switchyard/messaging';
import { readStream } from '@switchyard/messaging/testing';
import { processesWithEnvironment, startSystemProcesses, type SystemProcesses } from '@switchyard/testing';
import { gatewayCaller, until, finishedTask, type LooseJson, type GatewayResponse } from './gateway-e2e.spec-helper';

const DAEMON_ID = 'daemon-issue-results-e2e';
const RUNTIME_ID = `${DAEMON_ID}-claude-code`;
const TOKEN = 'sy_issueresult-e2e-token-issueresults-001';

interface Comment {
  readonly author: { readonly kind: string; readonly id: string };
  readonly body: string;
  readonly mentionedAgentIds: string[];
}

/**
 * Results written back to issues, every part real: queue, session-resume, transcript, gateway and a
 * daemon as built processes on real NATS and Postgres, the real Claude Code on the mock model. An
 * assigned issue goes `in_progress` while its run works and `in_review` with the agent's output
 * as its comment; a run that fails leaves the reason; deleting the issue mid-run cancels the task
 * and leaves no process of it.
 */
describe('issue results written back (real Claude Code)', () => {
  let system: SystemProcesses;
  let observer: MessagingConnection;
  let gatewayUrl = '';
  let agentId = '';
  let gates = '';

  const call = gatewayCaller(() => gatewayUrl, TOKEN);
  const api = (method: string, route: string, body?: unknown): Promise<GatewayResponse> => call(method, route, { body });

  const finished = (taskId: string): Promise<LooseJson> => finishedTask(call, taskId);

  const issueStatus = async (issueId: string, status: string): Promise<true> =>
    until(async () => ((await api('GET', `/api/issues/${issueId}`)).body?.status === status ? true : undefined), `issue ${issueId} is ${status}`);

  const commentsOf = async (issueId: string): Promise<Comment[]> => (await api('GET', `/api/issues/${issueId}/comments`)).body.comments as Comment[];

  /** The final output the daemon reported in `task.completed`. */
  const outputOf = async (taskId: string): Promise<string> => {
    const [completed] = (await readStream(observer, STREAM_CATALOG.TASK_EVENTS.name))
      .filter((message) => message.subject === subjects.taskEvent({ type: 'task.completed', taskId, publisher: SERVICE_PUBLISHERS.queue }))
      .map((message) => JSON.parse(message.text) as { payload: { output: string | null } });
    if (!completed) throw new Error(`task ${taskId} has no task.completed event`);
    return completed.payload.output ?? '';
  };

  /** An issue for the agent whose run blocks in its shell tool until the test opens the gate (or forever). */
  const gatedIssue = async (title: string, gate: string): Promise<{ issueId: string; taskId: string }> => {
    const command = `until test -f ${gate}; do sleep 0.2; done; echo gate-open`;
    const issue = await api('POST', '/api/issues', { title, description: `Wait for the gate. [[scenario:tool-command ${command}]]`, assigneeAgentId: agentId });
    expect(issue.status).toBe(201);
    return { issueId: issue.body.id, taskId: issue.body.tasks[0].taskId };
  };

  beforeAll(async () => {
    gates = await mkdtemp(path.join(tmpdir(), 'switchyard-issue-results-'));
    system = await startSystemProcesses({ services: ['queue', 'session-resume', 'transcript', 'gateway'], gatewayToken: TOKEN });
    ({ gatewayUrl, connection: observer } = system);
    await system.startDaemon({ daemonId: DAEMON_ID });
    await until(async () => ((await api('GET', `/api/runtimes/${RUNTIME_ID}`)).status === 200 ? true : undefined), 'the Claude runtime is listed', 60_000);
    const agent = await api('POST', '/api/agents', { name: 'Claude', runtimeId: RUNTIME_ID, env: { ANTHROPIC_BASE_URL: system.model.url, ANTHROPIC_API_KEY: 'sk-mock-not-a-secret' } });
    expect(agent.status).toBe(201);
    agentId = agent.body.id;
  }, 240_000);

  afterAll(async () => {
    await system?.stop();
    if (gates) await rm(gates, { recursive: true, force: true });
  });

  it('an assigned issue is in progress while its run works, then in review with the agent’s output as its comment', async () => {
    const gate = path.join(gates, 'assigned');
    const { issueId, taskId } = await gatedIssue('Open the gate', gate);
    expect((await api('GET', `/api/issues/${issueId}`)).body.status).toBe('todo');

    // The run is blocked in its shell tool: the issue must be in progress now, before it can complete.
    await issueStatus(issueId, 'in_progress');
    expect((await api('GET', `/api/tasks/${taskId}`)).body.status).toBe('running');
    await writeFile(gate, 'open');

    expect(await finished(taskId)).toMatchObject({ status: 'completed' });
    await issueStatus(issueId, 'in_review');
    const output = await outputOf(taskId);
    expect(output).toContain('gate-open');
    expect(await commentsOf(issueId)).toEqual([expect.objectContaining({ author: { kind: 'agent', id: agentId }, body: output.trim(), mentionedAgentIds: [] })]);
  }, 300_000);

  it('a run that fails for good leaves a system comment with the reason; the issue is not sent to review', async () => {
    const issue = await api('POST', '/api/issues', { title: 'Doomed request', description: 'This request is refused. [[scenario:error 400]]', assigneeAgentId: agentId });
    expect(issue.status).toBe(201);
    const taskId: string = issue.body.tasks[0].taskId;
    const issueId: string = issue.body.id;

    const task = await finished(taskId);
    expect(task.status).toBe('failed');
    const comments = await until(async () => {
      const listed = await commentsOf(issueId);
      return listed.length > 0 ? listed : undefined;
    }, 'the failure is written back');
    expect(comments).toEqual([expect.objectContaining({ author: { kind: 'system', id: 'gateway' }, mentionedAgentIds: [] })]);
    expect(comments[0]!.body).toContain(`The agent's run failed: ${task.failure.reason as string} (`);
    expect(comments[0]!.body).toContain(`(task ${taskId})`);
    // Non-transient: no automatic retry follows.
    const tasks = (await api('GET', `/api/tasks?agentId=${agentId}&limit=200`)).body.tasks as Array<{ retryOfTaskId: string | null }>;
    expect(tasks.filter((listed) => listed.retryOfTaskId === taskId)).toEqual([]);
    expect((await api('GET', `/api/issues/${issueId}`)).body.status).not.toBe('in_review');
  }, 300_000);

  it('deleting an issue mid-run cancels its task and leaves no process of that run', async () => {
    const { issueId, taskId } = await gatedIssue('Never finishes', path.join(gates, 'never-opened'));
    const marker = `SWITCHYARD_TASK_ID=${taskId}`;
    await issueStatus(issueId, 'in_progress');
    // The CLI and its shell tool are running under the task's environment.
    await until(() => Promise.resolve(processesWithEnvironment(marker).length >= 2 ? true : undefined), 'the run’s CLI and its shell tool are running');

    expect((await api('DELETE', `/api/issues/${issueId}`)).status).toBe(204);
    expect((await api('GET', `/api/issues/${issueId}`)).status).toBe(404);
    expect(await finished(taskId)).toMatchObject({ status: 'cancelled', cancellation: { reason: 'the issue was deleted' } });
    await until(() => Promise.resolve(processesWithEnvironment(marker).length === 0 ? true : undefined), 'no process of the run is left', 30_000);
    expect(processesWithEnvironment(marker)).toEqual([]);
  }, 300_000);
});
