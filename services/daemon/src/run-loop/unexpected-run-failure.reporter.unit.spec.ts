import type { CommandName, CommandPayloadOf } from '@switchyard/contracts';
import type { QueueClient } from './queue.client';
import { reportUnexpectedRunFailure } from './unexpected-run-failure.reporter';

/** A queue that records what it was sent and answers ok. */
function recordingQueue(): { queue: Pick<QueueClient, 'sendUntilAnswered'>; sent: Array<{ command: CommandName; payload: unknown; signal?: AbortSignal }> } {
  const sent: Array<{ command: CommandName; payload: unknown; signal?: AbortSignal }> = [];
  const queue = {
    sendUntilAnswered: <TName extends CommandName>(command: TName, payload: CommandPayloadOf<TName>, options: { readonly signal?: AbortSignal } = {}) => {
      sent.push({ command, payload, ...(options.signal ? { signal: options.signal } : {}) });
      return Promise.resolve({ ok: true, result: { taskId: 'task-1', state: 'failed' } } as never);
    },
  } as Pick<QueueClient, 'sendUntilAnswered'>;
  return { queue, sent };
}

describe('reporting a run that threw', () => {
  it('fails the attempt internal at once, naming the error, and stops retrying at shutdown', async () => {
    // Given a run of attempt 2 whose own code threw
    const { queue, sent } = recordingQueue();
    const shutdown = new AbortController();

    // When it is reported
    await reportUnexpectedRunFailure({ queue, task: { taskId: 'task-1', attempt: 2, leaseToken: 'lease-2' }, daemonId: 'daemon-1', error: new TypeError('text.replace is not a function'), signal: shutdown.signal });

    // Then the queue hears task.fail for that attempt with its lease token, the reason and the error's text
    expect(sent).toEqual([
      {
        command: 'task.fail',
        payload: {
          taskId: 'task-1',
          attempt: 2,
          daemonId: 'daemon-1',
          leaseToken: 'lease-2',
          reason: 'internal',
          message: 'the daemon failed while running the task: text.replace is not a function',
          sessionId: null,
          detail: null,
          durationMs: null,
          repositories: [],
        },
        signal: shutdown.signal,
      },
    ]);
  });

  it('cuts a huge error text to a bounded message', async () => {
    const { queue, sent } = recordingQueue();
    await reportUnexpectedRunFailure({ queue, task: { taskId: 'task-1', attempt: 1, leaseToken: 'lease-1' }, daemonId: 'daemon-1', error: 'x'.repeat(10_000), signal: new AbortController().signal });

    const message = (sent[0]?.payload as { message: string }).message;
    expect(message.length).toBeLessThan(600);
    expect(message.endsWith('…')).toBe(true);
  });
});
