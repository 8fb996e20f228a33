import type { Readable } from 'node:stream';

export interface StdioDrainGuardOptions {
  /** The child's output pipes, still open after its process group is gone. */
  readonly streams: readonly Readable[];
  /** Silence that makes the remaining writer count as a process that escaped the group. */
  readonly silenceMs: number;
  /**
   * Windows with output after which the pipes are cut anyway. Once the group is gone the only
   * legitimate output left is what sits in the pipe buffers, read within a poll phase or two;
   * whatever keeps coming after that is written by an escaped process.
   */
  readonly maxFlowingWindows: number;
}

/**
 * Cuts the pipes a process that left the group (setsid) would otherwise hold open forever, but only
 * once they were silent for a whole window: output still waiting to be read is never dropped.
 */
export function guardStdioDrain(options: StdioDrainGuardOptions): void {
  const { streams, silenceMs, maxFlowingWindows } = options;
  let chunksSeen = 0;
  let chunksAtLastCheck = 0;
  let flowingWindows = 0;
  const countChunk = (): void => {
    chunksSeen += 1;
  };
  // A 'data' listener does not resume a stream its consumer paused.
  for (const stream of streams) stream.on('data', countChunk);

  const allClosed = (): boolean => streams.every((stream) => stream.destroyed || stream.readableEnded);
  const release = (): void => {
    for (const stream of streams) stream.off('data', countChunk);
  };
  const cut = (): void => {
    release();
    for (const stream of streams) stream.destroy();
  };
  const sawOutput = (): boolean => {
    const flowed = chunksSeen !== chunksAtLastCheck || streams.some((stream) => stream.readableLength > 0);
    chunksAtLastCheck = chunksSeen;
    return flowed;
  };

  // Paused by a slow consumer: the pipe may still hold our output, so wait rather than cut.
  const held = (): boolean => streams.some((stream) => stream.isPaused());

  const arm = (): void => {
    setTimeout(check, silenceMs).unref();
  };
  function check(): void {
    if (allClosed()) {
      release();
      return;
    }
    if (held()) {
      arm();
      return;
    }
    if (sawOutput()) {
      flowingWindows += 1;
      if (flowingWindows >= maxFlowingWindows) cut();
      else arm();
      return;
    }
    // Timers run before the poll phase that reads the pipes, so a timer that fires late (after a
    // long synchronous stretch) can find bytes still unread in the kernel. Silence counts only if
    // it holds across one poll phase, which setImmediate comes after.
    setImmediate(() => {
      if (allClosed()) release();
      else if (held() || sawOutput()) arm();
      else cut();
    });
  }
  arm();
}
