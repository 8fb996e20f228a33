import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createCommand, subjects } from '@switchyard/contracts';
import { requestReply } from '@switchyard/messaging';
import { collectNotices } from '@switchyard/messaging/testing';
import { processesWithEnvironment, type ServiceChild } from '@switchyard/testing';
import { startDaemonE2eStack, type DaemonE2eStack } from './daemon-e2e.spec-helper';

const DAEMON_ID = 'daemon-cancel';
const RUNTIME_ID = `${DAEMON_ID}-claude-code`;
/** Below the daemon's first lease renewal (10 s into the run), which would also carry the cancel. */
const STOPPED_WITHIN_MS = 5_000;

/**
 * A running task cancelled through the queue: the queue, once the cancel committed, tells the
 * daemon holding the attempt on `notify.<daemonId>.cancel.<taskId>`, and the daemon's one notice
 * subscription stops that run at once, well before a renewal would have. The CLI is a stand-in
 * that answers its version and otherwise stays busy: only the stop matters here.
 */
describe('daemon stops a run when its task is cancelled (queue notice, real services)', () => {
  let stack: DaemonE2eStack;
  let daemon: ServiceChild | undefined;
  let taskId: string | undefined;

  beforeAll(async () => {
    stack = await startDaemonE2eStack();
    const bin = path.join(stack.home, 'busy-bin');
    await mkdir(bin, { recursive: true });
    await writeFile(path.join(bin, 'claude'), '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "2.1.197 (Claude Code)"; exit 0; fi\nexec /usr/bin/sleep 120\n');
    await chmod(path.join(bin, 'claude'), 0o755);
    daemon = await stack.startDaemon({ daemonId: DAEMON_ID, env: { DAEMON_PATH: bin } });
  }, 180_000);

  afterAll(async () => {
    await daemon?.stop();
    if (taskId) for (const pid of processesWithEnvironment(`SWITCHYARD_TASK_ID=${taskId}`)) process.kill(pid, 'SIGKILL');
    await stack?.stop();
  });

  it('ends the running task cancelled within seconds, after a notice addressed to its daemon alone', async () => {
    taskId = await stack.enqueue({ runtimeId: RUNTIME_ID, prompt: 'Stay busy', maxAttempts: 2 });
    await stack.waitForTask(taskId, ['running'], 60_000);
    const notices = await collectNotices(stack.connection, subjects.daemonNotices(DAEMON_ID));

    const cancel = createCommand({ command: 'task.cancel', payload: { taskId, requestedBy: { kind: 'user', id: 'user-e2e' }, reason: 'changed my mind' } });
    const cancelledAt = Date.now();
    const reply = await requestReply(stack.connection, { subject: subjects.command('task.cancel'), data: cancel, requestId: cancel.requestId, timeoutMs: 30_000 });

    expect(reply).toEqual({ ok: true, result: { taskId, state: 'running' } });
    expect(await stack.waitForTask(taskId, ['completed', 'failed', 'cancelled'], STOPPED_WITHIN_MS)).toMatchObject({ status: 'cancelled' });
    expect(Date.now() - cancelledAt).toBeLessThan(STOPPED_WITHIN_MS);
    expect(notices.received.map((notice) => notice.subject)).toContain(subjects.cancelNotice(DAEMON_ID, taskId));
    expect(processesWithEnvironment(`SWITCHYARD_TASK_ID=${taskId}`)).toEqual([]);
    // A cancelled task is not retried.
    expect(await stack.tasks('retry_of_task_id = $1', [taskId])).toEqual([]);
  }, 180_000);
});
