import { rm } from 'node:fs/promises';
import path from 'node:path';
import { STREAM_CATALOG, type TaskSource } from '@switchyard/contracts';
import { readStream } from '@switchyard/messaging/testing';
import { sampleAgentSnapshot } from '@switchyard/testing';
import { runtimeIdentityDescriptor, sessionFilePath } from '@switchyard/agent-adapters/wing';
import { claudeOnMock, startDaemonE2eStack, type DaemonE2eStack } from './daemon-e2e.spec-helper';

const DAEMON_ID = 'daemon-resume-e2e';
const RUNTIME_ID = `${DAEMON_ID}-claude-code`;
const ISSUE: TaskSource = { kind: 'issue', issueId: 'issue-1', trigger: 'mention', commentId: 'c1' };

/**
 * Session resume end to end, every part real: queue, session-resume and daemon as built processes,
 * real NATS and Postgres, the real Claude Code against the mock model (which repeats the secrets of
 * earlier turns it was sent, so a resumed conversation proves itself). The tests run in order: each
 * continues the issue's conversation of the one before.
 */
describe('issue conversation resumes across tasks (real Claude Code)', () => {
  let stack: DaemonE2eStack;

  beforeAll(async () => {
    stack = await startDaemonE2eStack();
    await stack.startDaemon({ daemonId: DAEMON_ID });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  });

  async function runToCompletion(options: { readonly agentId: string; readonly prompt: string; readonly forceFreshSession?: boolean }) {
    const taskId = await stack.enqueue({
      agentId: options.agentId,
      agent: sampleAgentSnapshot({ model: null, env: claudeOnMock(stack.model) }),
      runtimeId: RUNTIME_ID,
      source: ISSUE,
      prompt: options.prompt,
      forceFreshSession: options.forceFreshSession ?? false,
    });
    expect(await stack.waitForTask(taskId, ['completed', 'failed', 'cancelled'])).toMatchObject({ status: 'completed' });
    const [started] = await stack.started(taskId);
    const timeline = await stack.timeline(taskId);
    const text = timeline.flatMap((entry) => (entry.message.type === 'text' ? [entry.message.text] : [])).join('\n');
    const states = timeline.flatMap((entry) => (entry.message.type === 'status' ? [entry.message.state] : []));
    const pinned = (await stack.sessionEvents()).find((event) => event.type === 'session.pinned' && event.payload['taskId'] === taskId);
    return { taskId, started: started!, text, states, sessionId: pinned?.payload['sessionId'] as string };
  }

  const untilOffered = (agentId: string, sessionId: string) => stack.untilOffered({ agentId, runtimeId: RUNTIME_ID, source: ISSUE, sessionId });

  let first: Awaited<ReturnType<typeof runToCompletion>>;
  let forced: Awaited<ReturnType<typeof runToCompletion>>;

  it('the second task of (agent, issue) resumes the session of the first in the same work dir, and remembers its secret', async () => {
    first = await runToCompletion({ agentId: 'agent-alpha', prompt: 'Keep this in mind [[secret:tangerine]] [[scenario:text]]' });
    expect(first.started.resumedSessionId).toBeNull();
    expect(first.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await untilOffered('agent-alpha', first.sessionId);

    const second = await runToCompletion({ agentId: 'agent-alpha', prompt: 'What was the secret? [[scenario:text]]' });

    expect(second.started).toMatchObject({ resumedSessionId: first.sessionId, workDir: first.started.workDir });
    expect(second.text).toContain('tangerine');
    expect(second.states).not.toContain('resume_skipped');
  }, 300_000);

  it('a task forced fresh on the same issue starts a new session in a new work dir', async () => {
    forced = await runToCompletion({ agentId: 'agent-alpha', prompt: 'What was the secret? [[scenario:text]]', forceFreshSession: true });

    expect(forced.started.resumedSessionId).toBeNull();
    expect(forced.started.workDir).not.toBe(first.started.workDir);
    expect(forced.text).not.toContain('tangerine');
  }, 300_000);

  it('another agent on the same issue keeps its own session and work dir', async () => {
    const other = await runToCompletion({ agentId: 'agent-beta', prompt: 'What was the secret? [[scenario:text]]' });

    expect(other.started.resumedSessionId).toBeNull();
    expect(path.dirname(other.started.workDir)).not.toBe(path.dirname(first.started.workDir));
    expect(other.text).not.toContain('tangerine');
  }, 300_000);

  it('a session whose Claude Code store is gone is skipped and retired; the task runs fresh in the reused work dir', async () => {
    await untilOffered('agent-alpha', forced.sessionId);
    const storeFile = sessionFilePath({ layout: runtimeIdentityDescriptor('claude-code')!.sessionStore!, environment: { HOME: path.join(stack.home, 'runtime-homes', 'claude-code') }, workDirectory: forced.started.workDir, sessionId: forced.sessionId });
    expect(storeFile).not.toBeNull();
    await rm(storeFile!);

    const afterLoss = await runToCompletion({ agentId: 'agent-alpha', prompt: 'Go on [[scenario:text]]' });

    expect(afterLoss.started).toMatchObject({ resumedSessionId: null, workDir: forced.started.workDir });
    expect(afterLoss.states).toContain('resume_skipped');
    const retired = (await stack.sessionEvents()).filter((event) => event.type === 'session.retired');
    expect(retired.map((event) => event.payload)).toEqual([
      { sessionId: forced.sessionId, taskId: afterLoss.taskId, reason: 'session_store_missing', message: expect.any(String) },
    ]);
  }, 300_000);

  /** A task of its own agent and issue, so the conversation above is not touched; its first attempt meets `failure` once. */
  async function failOnceThenRetry(options: { readonly agentId: string; readonly issueId: string; readonly failure: string; readonly reason: string }) {
    const key = `${options.agentId}-${Date.now()}`;
    const taskId = await stack.enqueue({
      agentId: options.agentId,
      agent: sampleAgentSnapshot({ model: null, env: claudeOnMock(stack.model) }),
      runtimeId: RUNTIME_ID,
      source: { kind: 'issue', issueId: options.issueId, trigger: 'assignment', commentId: null },
      prompt: `Answer briefly [[secret:papaya]] [[scenario:error-once ${options.failure} ${key}]] [[scenario:text]]`,
      maxAttempts: 2,
    });
    expect(await stack.waitForTask(taskId, ['completed', 'failed', 'cancelled'])).toMatchObject({ status: 'failed', failure_reason: options.reason });
    const [retry] = await stack.tasks('retry_of_task_id = $1', [taskId]);
    expect(retry).toBeDefined();
    expect(await stack.waitForTask(retry!.task_id, ['completed', 'failed', 'cancelled'])).toMatchObject({ status: 'completed', failure_reason: null });
    const deferred = (await readStream(stack.connection, STREAM_CATALOG.TASK_EVENTS.name))
      .filter((message) => message.subject.startsWith(`task.deferred.${retry!.task_id}.`))
      .map((message) => (JSON.parse(message.text) as { payload: unknown }).payload);
    const keyed = stack.model.requests().filter((request) => JSON.stringify(request.body ?? null).includes(key));
    return { taskId, retryId: retry!.task_id, deferred, statuses: keyed.map((request) => request.status), failures: await stack.failures(taskId) };
  }

  it('a provider 429 once: the run fails rate_limited, its retry waits out the backoff (task.deferred), then runs and completes', async () => {
    const { retryId, deferred, statuses, failures } = await failOnceThenRetry({ agentId: 'agent-rate-limited', issueId: 'issue-429', failure: '429', reason: 'rate_limited' });

    expect(failures).toEqual([expect.objectContaining({ reason: 'rate_limited', message: expect.stringContaining('429') })]);
    expect(deferred).toEqual([expect.objectContaining({ taskId: retryId, reason: 'retry_backoff' })]);
    // The real CLI met the 429 once (no retry of its own), and the retried run got its answers.
    expect(statuses.length).toBeGreaterThanOrEqual(2);
    expect(statuses).toEqual([429, ...statuses.slice(1).map(() => 200)]);
  }, 300_000);

  it('a context overflow poisons the session: the retry starts a fresh one and completes', async () => {
    const { taskId, retryId, deferred, failures } = await failOnceThenRetry({ agentId: 'agent-overflow', issueId: 'issue-overflow', failure: 'context-overflow', reason: 'context_overflow' });

    expect(failures).toEqual([expect.objectContaining({ reason: 'context_overflow', message: expect.stringContaining('Prompt is too long') })]);
    expect(deferred).toEqual([expect.objectContaining({ reason: 'retry_backoff' })]);
    const [failedStart] = await stack.started(taskId);
    const [retryStart] = await stack.started(retryId);
    expect(failedStart!.resumedSessionId).toBeNull();
    // The failed attempt left a session (Claude reports one before the model call), and the retry did not resume it.
    const pinned = (await stack.sessionEvents()).filter((event) => event.type === 'session.pinned' && event.payload['taskId'] === taskId);
    expect(pinned).toHaveLength(1);
    expect(retryStart!.resumedSessionId).toBeNull();
  }, 300_000);
});
