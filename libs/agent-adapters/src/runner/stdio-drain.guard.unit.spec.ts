import { stat } from 'node:fs';
import { tmpdir } from 'node:os';
import { PassThrough } from 'node:stream';
import { guardStdioDrain } from './stdio-drain.guard';

const SILENCE_MS = 40;
const delay = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** A pipe still held open by some writer, read the way the runner reads it. */
function openPipe(): { pipe: PassThrough; received: string[] } {
  const pipe = new PassThrough();
  const received: string[] = [];
  pipe.on('data', (chunk: Buffer) => received.push(chunk.toString()));
  return { pipe, received };
}

async function waitUntilDestroyed(pipe: PassThrough, timeoutMs: number): Promise<number> {
  const startedAt = Date.now();
  while (!pipe.destroyed) {
    if (Date.now() - startedAt > timeoutMs) throw new Error(`not cut within ${timeoutMs} ms`);
    await delay(5);
  }
  return Date.now() - startedAt;
}

describe('stdio drain guard', () => {
  it('cuts pipes that stay silent for a whole window', async () => {
    const stdout = openPipe();
    const stderr = openPipe();

    guardStdioDrain({ streams: [stdout.pipe, stderr.pipe], silenceMs: SILENCE_MS, maxFlowingWindows: 10 });

    await waitUntilDestroyed(stdout.pipe, 1000);
    expect(stderr.pipe.destroyed).toBe(true);
  });

  it('keeps reading while output flows and cuts only after it fell silent', async () => {
    const { pipe, received } = openPipe();
    guardStdioDrain({ streams: [pipe], silenceMs: SILENCE_MS, maxFlowingWindows: 100 });

    for (let index = 0; index < 12; index += 1) {
      await delay(SILENCE_MS / 2);
      expect(pipe.destroyed).toBe(false);
      pipe.write(`chunk ${index}\n`);
    }

    await waitUntilDestroyed(pipe, 1000);
    expect(received).toHaveLength(12);
  });

  it('reads output that an overdue timer overtook before cutting', async () => {
    const { pipe, received } = openPipe();
    guardStdioDrain({ streams: [pipe], silenceMs: SILENCE_MS, maxFlowingWindows: 10 });

    // Like bytes waiting in the kernel pipe: delivered by an I/O callback in the poll phase, which
    // comes after the timers phase in which the guard's overdue timer runs.
    stat(tmpdir(), () => pipe.write('late output\n'));
    const until = Date.now() + SILENCE_MS * 3;
    while (Date.now() < until) {
      // A long synchronous stretch: the guard's timer comes due and the I/O callback waits.
    }

    await waitUntilDestroyed(pipe, 1000);
    expect(received).toEqual(['late output\n']);
  });

  it('never cuts a pipe its consumer paused, and cuts it once resumed and silent', async () => {
    const { pipe } = openPipe();
    pipe.pause();
    guardStdioDrain({ streams: [pipe], silenceMs: SILENCE_MS, maxFlowingWindows: 10 });

    await delay(SILENCE_MS * 4);
    expect(pipe.destroyed).toBe(false);

    pipe.resume();
    await waitUntilDestroyed(pipe, 1000);
  });

  it('cuts a pipe that never falls silent after the allowed windows of output', async () => {
    const { pipe } = openPipe();
    const chatter = setInterval(() => pipe.write('still here\n'), SILENCE_MS / 4);
    try {
      guardStdioDrain({ streams: [pipe], silenceMs: SILENCE_MS, maxFlowingWindows: 3 });

      const elapsed = await waitUntilDestroyed(pipe, 2000);
      expect(elapsed).toBeGreaterThanOrEqual(SILENCE_MS * 3 - 5);
    } finally {
      clearInterval(chatter);
    }
  });

  it('leaves pipes that ended alone and stops listening to them', async () => {
    const { pipe } = openPipe();
    guardStdioDrain({ streams: [pipe], silenceMs: SILENCE_MS, maxFlowingWindows: 10 });

    pipe.end('last words\n');
    await delay(SILENCE_MS * 3);

    expect(pipe.readableEnded).toBe(true);
    expect(pipe.listenerCount('data')).toBe(1);
  });
});
