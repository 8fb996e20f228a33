import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SERVICE_PUBLISHERS, STREAM_CATALOG, subjects } from '@switchyard/contracts';
import { readStream } from '@switchyard/messaging/testing';
import { generateSecretKey } from '@switchyard/persistence';
import { startOtlpTraceReceiver, startSystemProcesses, type OtlpTraceReceiver, type ReceivedSpan, type SystemProcesses } from '@switchyard/testing';
import { finishedTask, gatewayCaller, until } from './gateway-e2e.spec-helper';

const DAEMON_ID = 'daemon-trace-e2e';
const RUNTIME_ID = `${DAEMON_ID}-claude-code`;
const TOKEN = 'sy_trace-e2e-token-trace-e2e-token-0001';
/** Every secret the processes are configured with, to look for in the spans. */
const SECRETS = {
  gatewayToken: TOKEN,
  queueTaskTokenSecret: 'trace-e2e-task-token-secret-trace-e2e-0001',
  queueSecretKeys: generateSecretKey(),
  gatewaySecretKeys: generateSecretKey(),
  agentApiKey: 'sk-ant-api03-trace-e2e-agent-key-not-a-real-one-0001',
};
const SERVICE_NAMES = ['gateway', 'queue', 'session-resume', 'transcript', 'daemon'];

/** A span as `service: name` (`queue: claim task`). */
const labelOf = (span: ReceivedSpan): string => `${span.serviceName}: ${span.name}`;

/** The spans labelled so. */
const spansLabelled = (spans: readonly ReceivedSpan[], label: string): ReceivedSpan[] => spans.filter((span) => labelOf(span) === label);

/** The labels of the span and each of its ancestors, root first, as far as they arrived. */
function ancestry(spans: readonly ReceivedSpan[], leaf: ReceivedSpan): string[] {
  const byId = new Map(spans.filter((span) => span.traceId === leaf.traceId).map((span) => [span.spanId, span]));
  const chain: string[] = [];
  for (let span: ReceivedSpan | undefined = leaf; span; span = span.parentSpanId ? byId.get(span.parentSpanId) : undefined) {
    chain.unshift(`${labelOf(span)}${span.parentSpanId && !byId.has(span.parentSpanId) ? ' (parent missing)' : ''}`);
  }
  return chain;
}

/**
 * OpenTelemetry traces across the whole system, every part real: gateway, queue, session-resume and
 * transcript as built processes on real NATS and Postgres, a daemon running the real Claude Code on
 * the mock model, each exporting OTLP/JSON to a receiver in this test. One task created over REST
 * is one trace, from the gateway's request through the queue's enqueue and claim and the daemon's
 * run to the transcript's projection of its timeline; no span holds a token or a configured
 * secret. The transcript exports only at shutdown (a schedule delay longer than the test), so its
 * spans prove the flush on a graceful stop.
 */
describe('one trace per task, across every process (real Claude Code)', () => {
  let receiver: OtlpTraceReceiver;
  let system: SystemProcesses;
  let gatewayUrl = '';
  let agentId = '';

  const call = gatewayCaller(() => gatewayUrl, TOKEN);

  beforeAll(async () => {
    receiver = await startOtlpTraceReceiver();
    const traces = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '100' };
    system = await startSystemProcesses({
      services: ['queue', 'session-resume', 'transcript', 'gateway'],
      gatewayToken: TOKEN,
      serviceEnv: {
        queue: { ...traces, QUEUE_TASK_TOKEN_SECRET: SECRETS.queueTaskTokenSecret, QUEUE_SECRET_KEYS: SECRETS.queueSecretKeys },
        'session-resume': traces,
        transcript: { ...traces, OTEL_BSP_SCHEDULE_DELAY: '3600000' },
        gateway: { ...traces, GATEWAY_SECRET_KEYS: SECRETS.gatewaySecretKeys },
      },
    });
    ({ gatewayUrl } = system);
    await system.startDaemon({ daemonId: DAEMON_ID, env: traces });
    await until(async () => ((await call('GET', `/api/runtimes/${RUNTIME_ID}`)).status === 200 ? true : undefined), 'the Claude runtime is listed', 60_000);
    const agent = await call('POST', '/api/agents', { body: { name: 'Claude', runtimeId: RUNTIME_ID, env: { ANTHROPIC_BASE_URL: system.model.url, ANTHROPIC_API_KEY: SECRETS.agentApiKey } } });
    expect(agent.status).toBe(201);
    agentId = agent.body.id;
  }, 240_000);

  afterAll(async () => {
    await system?.stop();
    await receiver?.stop();
  });

  it('links the REST request to the projection of the task’s timeline through enqueue, claim and run, with no secret in any span', async () => {
    const created = await call('POST', '/api/tasks', { body: { agentId, prompt: 'Note your token. [[scenario:tool-command printf %s "$SWITCHYARD_TOKEN" > task-token.txt]]' } });
    expect(created.status).toBe(201);
    const taskId: string = created.body.taskId;
    expect(await finishedTask(call, taskId)).toMatchObject({ status: 'completed' });
    await until(async () => (((await call('GET', `/api/tasks/${taskId}/messages`)).body?.messages as unknown[] | undefined)?.length ? true : undefined), `task ${taskId}'s timeline is projected`, 30_000);

    // The transcript's spans wait in its buffer: a graceful stop exports them.
    await system.service('transcript').stop();
    const ofTask = (span: ReceivedSpan): boolean => span.attributes['switchyard.task.id'] === taskId;
    // Until every process has reported and the projection's whole line of descent has arrived.
    const { spans, projection, chain } = await until(() => {
      const received = receiver.spans();
      const complete = spansLabelled(received, 'transcript: project task.message')
        .filter(ofTask)
        .map((candidate) => ({ projection: candidate, chain: ancestry(received, candidate) }))
        .find((line) => !line.chain[0]?.includes('(parent missing)'));
      const everyProcess = SERVICE_NAMES.every((name) => received.some((span) => span.serviceName === name));
      return Promise.resolve(everyProcess && complete ? { spans: received, ...complete } : undefined);
    }, 'spans of every process, and the whole line of descent of the task’s projection', 60_000);

    expect([...new Set(spans.map((span) => span.serviceName))].sort()).toEqual([...SERVICE_NAMES].sort());
    const [rest] = spansLabelled(spans, 'gateway: POST /api/tasks').filter(ofTask);
    expect(rest).toMatchObject({ kind: 2, parentSpanId: undefined, attributes: expect.objectContaining({ 'http.route': '/api/tasks', 'http.response.status_code': 201 }) });
    expect(projection.traceId).toBe(rest?.traceId);
    // One line of descent, from the request (the root) to the projection, through every step in order.
    const steps = ['gateway: POST /api/tasks', 'gateway: request task.enqueue', 'queue: handle task.enqueue', 'queue: claim task', 'daemon: run task', 'daemon: publish task.message', 'transcript: project task.message'];
    expect(chain[0]).toBe(steps[0]);
    expect(chain.filter((step) => steps.includes(step))).toEqual(steps);

    // The claim itself runs in the daemon's own trace; the task's claim and run link to it.
    const [run] = spansLabelled(spans, 'daemon: run task').filter(ofTask);
    const [claimOfTask] = spansLabelled(spans, 'queue: claim task').filter(ofTask);
    const claims = spansLabelled(spans, 'daemon: claim tasks');
    const handledClaims = spansLabelled(spans, 'queue: handle task.claim');
    expect(claims.map((claim) => claim.spanId)).toContain(run?.links[0]?.spanId);
    expect(handledClaims.map((handled) => handled.spanId)).toContain(claimOfTask?.links[0]?.spanId);
    expect(run?.attributes).toMatchObject({ 'switchyard.task.attempt': 1, 'switchyard.runtime.id': RUNTIME_ID, 'switchyard.daemon.id': DAEMON_ID });
    // The task's events, relayed by the queue, reach the other consumers in the same trace.
    expect(spansLabelled(spans, 'session-resume: process task.enqueued').filter((span) => span.traceId === rest?.traceId)).not.toEqual([]);

    // No span, attribute or link holds the task's token or any configured secret.
    const [started] = (await readStream(system.connection, STREAM_CATALOG.TASK_EVENTS.name))
      .filter((message) => message.subject === subjects.taskEvent({ type: 'task.started', taskId, publisher: SERVICE_PUBLISHERS.queue }))
      .map((message) => JSON.parse(message.text) as { payload: { workDir: string } });
    const taskToken = await readFile(path.join(started!.payload.workDir, 'task-token.txt'), 'utf8');
    expect(taskToken).toMatch(/^syt_[\w-]{43}$/);
    const exported = JSON.stringify(receiver.spans());
    for (const [name, secret] of Object.entries({ taskToken, ...SECRETS })) expect({ name, found: exported.includes(secret) }).toEqual({ name, found: false });
  }, 300_000);
});
