import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { TaskSource } from '@switchyard/contracts';
import { collectNotices, type CollectedNotices } from '@switchyard/messaging/testing';
import { sampleAgentSnapshot, type ServiceChild } from '@switchyard/testing';
import { startDaemonE2eStack, type DaemonE2eStack, type TimelineEntry } from './daemon-e2e.spec-helper';

const DAEMON_ID = 'daemon-e2e';
/** The daemon's default: the acceptance is judged at the interval a real daemon uses. */
const HEARTBEAT_INTERVAL_MS = 5_000;
/**
 * The queue's default `QUEUE_RUNTIME_OFFLINE_AFTER_MS`, which this stack runs with: a silence this
 * long makes the runtime offline. That is the promise; how punctual each beat is on a loaded
 * machine is not (a second past the interval failed CI with fourteen CLIs on two cores).
 */
const QUEUE_OFFLINE_AFTER_MS = 20_000;

const RUNTIMES = [
  { identity: 'claude-code', model: null, env: (url: string) => ({ ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'sk-mock-not-a-secret' }) },
  { identity: 'codex', model: 'mock-model', env: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }) },
  { identity: 'gemini-cli', model: null, env: (url: string) => ({ GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'mock-not-a-secret' }) },
  { identity: 'qwen-code', model: 'mock-model', env: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }) },
  { identity: 'opencode', model: 'mock-model', env: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }) },
  { identity: 'pi', model: 'mock-model', env: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }) },
  { identity: 'copilot', model: 'mock-model', env: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-mock-not-a-secret' }) },
] as const;
type Runtime = (typeof RUNTIMES)[number];

/** The two conversations each CLI keeps: an issue's (continued by a comment) and a chat session's. */
const conversations = (identity: string) =>
  [
    { kind: 'issue', first: { kind: 'issue', issueId: `issue-${identity}`, trigger: 'assignment', commentId: null }, followUp: { kind: 'issue', issueId: `issue-${identity}`, trigger: 'mention', commentId: `comment-${identity}` } },
    { kind: 'chat', first: { kind: 'chat', chatSessionId: `chat-${identity}`, chatMessageId: `message-1-${identity}` }, followUp: { kind: 'chat', chatSessionId: `chat-${identity}`, chatMessageId: `message-2-${identity}` } },
  ] as const satisfies ReadonlyArray<{ kind: string; first: TaskSource; followUp: TaskSource }>;

interface Run {
  readonly runtime: Runtime;
  readonly kind: 'issue' | 'chat';
  readonly followUp: TaskSource;
  readonly secret: string;
  readonly proofFile: string;
  readonly taskId: string;
}

/**
 * End to end, every part real: the queue, session-resume and the daemon as built processes, real
 * NATS and Postgres, the real Claude Code, Codex, Gemini CLI, Qwen Code, OpenCode, Pi and Copilot
 * against the mock model. All seven run at once, an issue task and a chat task each, while the
 * daemon is made to re-detect its CLIs (SIGHUP): every task completes once, none is retried, and
 * every runtime keeps beating, never silent long enough for the queue to call it offline. Then a
 * comment on each issue and a second message in each chat continue the CLI's own session through
 * the queue.
 */
describe('enqueue → queue → daemon → seven real agent CLIs at once → timeline; follow-ups resume', () => {
  let stack: DaemonE2eStack;
  let heartbeats: CollectedNotices;
  let daemon: ServiceChild;
  const arrivals = new Map<string, number[]>();
  let firstRuns: Run[] = [];

  beforeAll(async () => {
    stack = await startDaemonE2eStack();
    heartbeats = await collectNotices(stack.connection, 'runtime.heartbeat.>', {
      onNotice: (notice) => {
        const runtimeId = (JSON.parse(notice.text) as { payload: { runtimeId: string } }).payload.runtimeId;
        arrivals.set(runtimeId, [...(arrivals.get(runtimeId) ?? []), Date.now()]);
      },
    });
    daemon = await stack.startDaemon({ daemonId: DAEMON_ID, env: { DAEMON_HEARTBEAT_INTERVAL_MS: String(HEARTBEAT_INTERVAL_MS) } });
  }, 180_000);

  afterAll(async () => {
    heartbeats?.close();
    await stack?.stop();
  });

  const agentOf = (runtime: Runtime) => ({ agentId: `agent-${runtime.identity}`, agent: sampleAgentSnapshot({ model: runtime.model, env: runtime.env(stack.model.url) }), runtimeId: `${DAEMON_ID}-${runtime.identity}` });
  const textOf = (timeline: readonly TimelineEntry[]) => timeline.flatMap((entry) => (entry.message.type === 'text' ? [entry.message.text] : [])).join('\n');
  const pinnedSession = async (taskId: string) =>
    (await stack.sessionEvents()).filter((event) => event.type === 'session.pinned' && event.payload['taskId'] === taskId).map((event) => event.payload);

  it('runs all seven at once through a forced re-detection: each task completes once, no retry, heartbeats on time', async () => {
    const detectionFile = path.join(stack.home, 'detection.json');
    const bootDetection = (await stat(detectionFile)).mtimeMs;
    firstRuns = await Promise.all(
      RUNTIMES.flatMap((runtime) =>
        conversations(runtime.identity).map(async ({ kind, first, followUp }) => {
          const secret = `${kind}-word-${runtime.identity}`;
          const proofFile = path.join(stack.home, `proof-${kind}-${runtime.identity}.txt`);
          // The tool call takes 8 s, so every run is still busy when the re-detection comes (not
          // with `sleep`: Qwen Code refuses a sleep over 2 s in the foreground).
          const taskId = await stack.enqueue({
            ...agentOf(runtime),
            source: first,
            prompt: `Remember [[secret:${secret}]] and write the proof [[scenario:tool-command node -e "setTimeout(() => {}, 8000)" && printf 'done by ${runtime.identity}' > ${proofFile}]]`,
          });
          return { runtime, kind, followUp, secret, proofFile, taskId };
        }),
      ),
    );

    // Once every run has started, the daemon re-detects (7 version probes and a model listing).
    await Promise.all(firstRuns.map((run) => stack.waitForTask(run.taskId, ['running', 'completed', 'failed', 'cancelled'])));
    process.kill(daemon.pid, 'SIGHUP');
    const redetectedAt = await waitForChange(detectionFile, bootDetection);
    const ends = await Promise.all(firstRuns.map((run) => stack.waitForTask(run.taskId, ['completed', 'failed', 'cancelled'], 300_000)));
    const stillRunningAtRedetection = (await stack.tasks(`task_id = any($1) and terminal_at > $2`, [firstRuns.map((run) => run.taskId), new Date(redetectedAt)])).length;

    const outcomes = await Promise.all(
      firstRuns.map(async (run, index) => {
        const { status, failure_reason: reason } = ends[index]!;
        // A failure shows its errors and logs, so the assertion says what went wrong.
        const errors =
          status === 'completed'
            ? []
            : [
                ...(await stack.timeline(run.taskId)).filter((entry) => entry.message.type === 'error' || entry.message.type === 'log').map((entry) => entry.message),
                ...(await stack.failures(run.taskId)),
              ];
        return { identity: run.runtime.identity, kind: run.kind, status, reason, errors };
      }),
    );
    expect(outcomes).toEqual(firstRuns.map((run) => ({ identity: run.runtime.identity, kind: run.kind, status: 'completed', reason: null, errors: [] })));
    expect(await stack.tasks(`retry_of_task_id is not null`, [])).toEqual([]);
    expect(stillRunningAtRedetection).toBeGreaterThan(0);
    for (const run of firstRuns) {
      expect(await stack.started(run.taskId)).toHaveLength(1);
      const timeline = await stack.timeline(run.taskId);
      // On failure, the tool calls and results say what the CLI did instead.
      const proof = await readFile(run.proofFile, 'utf8').catch(() => JSON.stringify(timeline.filter((entry) => entry.message.type.startsWith('tool'))));
      expect({ identity: run.runtime.identity, kind: run.kind, proof }).toEqual({ identity: run.runtime.identity, kind: run.kind, proof: `done by ${run.runtime.identity}` });
      expect(timeline.map((entry) => entry.seq)).toEqual(timeline.map((_, index) => index));
      // Every CLI shows the tool call, its result and a final text, in that order.
      const types = timeline.map((entry) => entry.message.type);
      const toolUse = types.indexOf('tool-use');
      expect({ identity: run.runtime.identity, toolUse: toolUse >= 0 }).toEqual({ identity: run.runtime.identity, toolUse: true });
      expect(types.indexOf('tool-result', toolUse)).toBeGreaterThan(toolUse);
      expect(types.lastIndexOf('text')).toBeGreaterThan(types.indexOf('tool-result', toolUse));
      const pinned = await pinnedSession(run.taskId);
      expect(pinned).toHaveLength(1);
      expect(String(pinned[0]!['workDir'])).toContain(path.join(stack.home, 'workspaces'));
    }

    const worstGaps = RUNTIMES.map(({ identity }) => {
      const times = arrivals.get(`${DAEMON_ID}-${identity}`) ?? [];
      return { identity, beats: times.length, worstGapMs: Math.max(...times.slice(1).map((time, index) => time - times[index]!)) };
    });
    for (const gap of worstGaps) {
      expect(gap.beats).toBeGreaterThan(2);
      expect({ identity: gap.identity, late: gap.worstGapMs >= QUEUE_OFFLINE_AFTER_MS, worstGapMs: gap.worstGapMs }).toMatchObject({ identity: gap.identity, late: false });
    }
    // One cache per identity, shared with the probes: Copilot unpacked itself once, not into its runtime home.
    await expect(stat(path.join(stack.home, 'cache', 'copilot', 'copilot'))).resolves.toBeDefined();
    await expect(stat(path.join(stack.home, 'runtime-homes', 'copilot', '.cache'))).rejects.toThrow();
  }, 600_000);

  it('a comment on each issue and a second message in each chat resume the CLI session, with its memory', async () => {
    expect(firstRuns).toHaveLength(RUNTIMES.length * 2);
    const followUps = await Promise.all(
      firstRuns.map(async (first) => {
        const [pinned] = await pinnedSession(first.taskId);
        const sessionId = String(pinned!['sessionId']);
        const { agentId, runtimeId } = agentOf(first.runtime);
        await stack.untilOffered({ agentId, runtimeId, source: first.followUp, sessionId });
        const taskId = await stack.enqueue({ ...agentOf(first.runtime), source: first.followUp, prompt: 'What was the word? [[scenario:text]]' });
        return { first, sessionId, taskId };
      }),
    );

    for (const { first, sessionId, taskId } of followUps) {
      const end = await stack.waitForTask(taskId, ['completed', 'failed', 'cancelled'], 300_000);
      const [started] = await stack.started(taskId);
      const [firstStarted] = await stack.started(first.taskId);
      const timeline = await stack.timeline(taskId);
      const states = timeline.flatMap((entry) => (entry.message.type === 'status' ? [entry.message.state] : []));
      // A failed follow-up shows why (its task.failed payloads), so a flake can be read from the CI log.
      const failures = end.status === 'completed' ? [] : await stack.failures(taskId);
      expect({ identity: first.runtime.identity, kind: first.kind, status: end.status, failures, resumed: started?.resumedSessionId, workDir: started?.workDir, skipped: states.includes('resume_skipped') }).toEqual({
        identity: first.runtime.identity,
        kind: first.kind,
        status: 'completed',
        failures: [],
        resumed: sessionId,
        workDir: firstStarted?.workDir,
        skipped: false,
      });
      expect(textOf(timeline)).toContain(first.secret);
    }
  }, 600_000);
});

/** Resolves with the file's new modification time once it differs from `before`. */
async function waitForChange(file: string, before: number): Promise<number> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const modified = (await stat(file)).mtimeMs;
    if (modified !== before) return modified;
    if (Date.now() > deadline) throw new Error(`${file} was not rewritten`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
