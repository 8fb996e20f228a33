import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TimelineEntry } from '@switchyard/contracts';
import { startSystemProcesses, type MockModelServer, type SystemProcesses } from '@switchyard/testing';

const run = promisify(execFile);
const workspaceRoot = path.resolve(__dirname, '../../..');
const yardMain = path.join(workspaceRoot, 'dist/tools/yard-cli/src/main.js');
const DAEMON_ID = 'daemon-yard-e2e';
const TOKEN = 'sy_yard-e2e-token-yard-e2e-token-000001';

/**
 * The whole system as separate processes (queue, transcript, gateway, daemon) on real NATS and
 * Postgres, driven by the `yard` CLI: POST a task, follow it live over WebSocket while the real
 * Claude Code runs against the mock model, then replay it over REST: both give the same rows.
 */
describe('yard → gateway → queue → daemon → real Claude Code → transcript → yard', () => {
  let system: SystemProcesses;
  let model: MockModelServer;
  let home: string;
  let gatewayUrl = '';

  const yard = async (...args: string[]): Promise<{ stdout: string; stderr: string }> =>
    run(process.execPath, [yardMain, ...args], { env: { ...process.env, SWITCHYARD_URL: gatewayUrl, SWITCHYARD_TOKEN: TOKEN }, maxBuffer: 64 * 1024 * 1024 });
  const entriesOf = (stdout: string): TimelineEntry[] => stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as TimelineEntry);

  beforeAll(async () => {
    system = await startSystemProcesses({ services: ['queue', 'transcript', 'gateway'], gatewayToken: TOKEN });
    ({ model, home, gatewayUrl } = system);
    await system.startDaemon({ daemonId: DAEMON_ID });
  }, 240_000);

  afterAll(async () => {
    await system?.stop();
  });

  let agent: Promise<string> | undefined;
  /** The agent on the daemon's Claude runtime, created once the gateway lists that runtime. */
  function claudeAgent(): Promise<string> {
    agent ??= (async () => {
      const runtimeId = `${DAEMON_ID}-claude-code`;
      // The daemon's runtime reaches the gateway's view through its registration event.
      const deadline = Date.now() + 60_000;
      while (!(await yard('runtime', 'list')).stdout.includes(runtimeId)) {
        if (Date.now() > deadline) throw new Error(`runtime ${runtimeId} never listed`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      return (await yard('agent', 'create', '--name', 'e2e-claude', '--runtime', runtimeId, '--env', `ANTHROPIC_BASE_URL=${model.url}`, '--env', 'ANTHROPIC_API_KEY=sk-mock-not-a-secret')).stdout.trim();
    })();
    return agent;
  }

  it('creates a task, follows it live to completion, and the REST replay equals what the WebSocket delivered', async () => {
    const agentId = await claudeAgent();
    const target = path.join(home, 'written-by-yard-task.txt');

    const followed = await yard('task', 'create', '--agent', agentId, '--prompt', `Write it [[scenario:tool-write-file ${target} from yard]]`, '--follow', '--json');
    const taskId = followed.stderr.split('\n')[0]!.trim();
    const live = entriesOf(followed.stdout);

    expect(await readFile(target, 'utf8')).toBe('from yard');
    expect(live.map((entry) => entry.type)).toEqual(['tool_use', 'tool_result', 'text']);
    expect(live.map((entry) => entry.seq)).toEqual([...live.map((entry) => entry.seq)].sort((left, right) => left - right));
    expect(followed.stderr).toContain('== completed');

    // The projector commits shortly after the events are published.
    let replayed: TimelineEntry[] = [];
    const deadline = Date.now() + 60_000;
    while (replayed.length < live.length && Date.now() < deadline) {
      replayed = entriesOf((await yard('task', 'messages', taskId, '--json')).stdout);
      if (replayed.length < live.length) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(replayed).toEqual(live);
  }, 240_000);

  it('acts on an issue with the agent commands: comment (argument and stdin), status, sub-issue, show; a refusal names the API’s code', async () => {
    const created = await fetch(`${gatewayUrl}/api/issues`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Issue for yard', description: 'Driven by yard issue' }),
    });
    const issueId = ((await created.json()) as { id: string }).id;
    const inIssue = { env: { ...process.env, SWITCHYARD_API_URL: gatewayUrl, SWITCHYARD_TOKEN: TOKEN, SWITCHYARD_ISSUE_ID: issueId } };

    expect((await run(process.execPath, [yardMain, 'issue', 'comment', 'First', 'words'], inIssue)).stdout).toContain(`commented on ${issueId}`);
    const fromStdin = run(process.execPath, [yardMain, 'issue', 'comment'], inIssue);
    fromStdin.child.stdin?.end('From stdin,\nover two lines');
    await fromStdin;
    expect((await run(process.execPath, [yardMain, 'issue', 'status', 'in_progress'], inIssue)).stdout).toBe(`${issueId}\tin_progress\n`);
    const child = await run(process.execPath, [yardMain, 'issue', 'create', '--title', 'A sub-issue', '--description', 'made by yard', '--json'], inIssue);
    expect(JSON.parse(child.stdout)).toMatchObject({ title: 'A sub-issue', description: 'made by yard', parentIssueId: issueId });

    const shown = JSON.parse((await run(process.execPath, [yardMain, 'issue', 'show', '--json'], inIssue)).stdout) as { issue: { status: string }; comments: Array<{ body: string }> };
    expect(shown.issue.status).toBe('in_progress');
    expect(shown.comments.map((comment) => comment.body)).toEqual(['First words', 'From stdin,\nover two lines']);
    expect((await run(process.execPath, [yardMain, 'issue', 'show'], inIssue)).stdout).toContain('[in_progress]\tIssue for yard');

    const refused = await run(process.execPath, [yardMain, 'issue', 'status', 'open'], inIssue).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/^yard: validation_failed: .*\(HTTP 400\)/) });
  }, 60_000);

  it('cancels a running task: the follower sees it end cancelled', async () => {
    const agentId = await claudeAgent();
    const created = await yard('task', 'create', '--agent', agentId, '--prompt', 'Take long [[scenario:slow 60000]]');
    const taskId = created.stdout.trim();
    // Exit code 1 (the task did not complete) rejects: keep the outcome either way.
    const following = yard('task', 'follow', taskId).then(
      ({ stdout }) => ({ stdout, code: 0 }),
      (error: { stdout: string; code: number }) => ({ stdout: error.stdout, code: error.code }),
    );
    await model.waitForRequest((request) => request.outcome === 'pending' && JSON.stringify(request.body ?? null).includes('Take long'), 60_000);

    expect((await yard('task', 'cancel', taskId)).stdout).toContain(taskId);

    const followed = await following;
    expect({ stdout: followed.stdout, code: followed.code }).toMatchObject({ stdout: expect.stringContaining('== cancelled'), code: 1 });
  }, 120_000);
});

