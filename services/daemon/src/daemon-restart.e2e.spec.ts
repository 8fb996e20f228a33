import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';
import { SERVICE_PUBLISHERS, STREAM_CATALOG, subjects } from '@switchyard/contracts';
import { readStream } from '@switchyard/messaging/testing';
import { processesWithEnvironment, type ServiceChild } from '@switchyard/testing';
import { startDaemonE2eStack, type DaemonE2eStack } from './daemon-e2e.spec-helper';

const DAEMON_ID = 'daemon-restart';
const RUNTIME_ID = `${DAEMON_ID}-claude-code`;
/** Far below the queue's lease (30 s) and offline window (15 s): only the boot release is this fast. */
const RELEASE_WITHIN_MS = 10_000;

/**
 * A daemon killed with SIGKILL and started again under the same DAEMON_ID: before its first claim
 * it has the queue fail the attempts its previous process held, so they are retried at once
 * instead of waiting out their lease, and work that waited for it is claimed only after that.
 * The CLI is a stand-in that answers its version and otherwise just stays busy: the run's content
 * does not matter here, only who holds which attempt.
 */
describe('daemon restarted under the same DAEMON_ID releases its previous process’s attempts', () => {
  let stack: DaemonE2eStack;
  let daemon: ServiceChild | undefined;
  let bin: string;
  const busyTasks: string[] = [];

  beforeAll(async () => {
    stack = await startDaemonE2eStack();
    bin = path.join(stack.home, 'busy-bin');
    await mkdir(bin, { recursive: true });
    await writeFile(path.join(bin, 'claude'), '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "2.1.197 (Claude Code)"; exit 0; fi\nexec /usr/bin/sleep 120\n');
    await chmod(path.join(bin, 'claude'), 0o755);
  }, 180_000);

  afterAll(async () => {
    await daemon?.stop();
    // The stand-in of the killed process's run, should it have outlived its daemon.
    for (const taskId of busyTasks) for (const pid of processesWithEnvironment(`SWITCHYARD_TASK_ID=${taskId}`)) process.kill(pid, 'SIGKILL');
    await stack?.stop();
  });

  const startDaemon = (): Promise<ServiceChild> => stack.startDaemon({ daemonId: DAEMON_ID, env: { DAEMON_PATH: bin } });

  /** The task's `task.failed` message as the stream has it: the relay publishes it just after the row commits, so wait for it. */
  async function failureMessage(taskId: string): Promise<string> {
    const deadline = Date.now() + RELEASE_WITHIN_MS;
    for (;;) {
      const [failed] = (await readStream(stack.connection, STREAM_CATALOG.TASK_EVENTS.name))
        .filter((message) => message.subject === subjects.taskEvent({ type: 'task.failed', taskId, publisher: SERVICE_PUBLISHERS.queue }))
        .map((message) => (JSON.parse(message.text) as { payload: { message: string } }).payload.message);
      if (failed !== undefined) return failed;
      if (Date.now() > deadline) throw new Error(`no task.failed of ${taskId} in TASK_EVENTS`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('fails the killed run runtime_recovery at once, retries it, and claims waiting work only after the release', async () => {
    daemon = await startDaemon();
    const orphan = await stack.enqueue({ runtimeId: RUNTIME_ID, prompt: 'Stay busy', maxAttempts: 2 });
    busyTasks.push(orphan);
    await stack.waitForTask(orphan, ['running'], 60_000);

    await daemon.kill('SIGKILL');
    daemon = undefined;
    // Queued while the daemon is away: a claim racing the release would see it failed as an orphan.
    const waiting = await stack.enqueue({ runtimeId: RUNTIME_ID, agentId: 'agent-waiting', prompt: 'Wait for me', maxAttempts: 1 });
    busyTasks.push(waiting);
    // The orphan's row locked: the release stalls in the queue, and so must every claim of the daemon.
    const database = new Client({ connectionString: stack.databaseUrl });
    await database.connect();
    try {
      await database.query('begin');
      await database.query('select 1 from agent_task_queue where task_id = $1 for update', [orphan]);
      daemon = await startDaemon();
      // Listening means the claim loop has started; nudges and its first claim come within this.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const statuses = Object.fromEntries((await stack.tasks('task_id = any($1)', [[orphan, waiting]])).map((row) => [row.task_id, row.status]));
      expect(statuses).toEqual({ [orphan]: 'running', [waiting]: 'queued' });
    } finally {
      await database.query('rollback');
      await database.end();
    }

    expect(await stack.waitForTask(orphan, ['failed', 'cancelled'], RELEASE_WITHIN_MS)).toMatchObject({ status: 'failed', failure_reason: 'runtime_recovery' });
    expect(await failureMessage(orphan)).toMatch(new RegExp(`^Daemon ${DAEMON_ID} restarted \\(booted .+\\); the run was lost with it$`));
    const [retry] = await stack.tasks('retry_of_task_id = $1', [orphan]);
    expect(retry).toBeDefined();
    busyTasks.push(retry!.task_id);
    // Both are claimed by the restarted daemon on nudges, well before its 30 s safety poll.
    expect(await stack.waitForTask(retry!.task_id, ['running'], RELEASE_WITHIN_MS)).toMatchObject({ status: 'running' });
    expect(await stack.waitForTask(waiting, ['running'], RELEASE_WITHIN_MS)).toMatchObject({ status: 'running' });
  }, 180_000);
});
