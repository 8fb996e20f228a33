import type { JsonLogger } from '@switchyard/service-kit';
import { HeartbeatClock } from './heartbeat.clock';

/** Records warn calls by their `event` field. */
function recordingLogger(): { logger: JsonLogger; events: Array<Record<string, unknown>> } {
  const events: Array<Record<string, unknown>> = [];
  const logger = { warn: (fields: Record<string, unknown>) => events.push(fields) } as unknown as JsonLogger;
  return { logger, events };
}

describe('heartbeat clock', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  it('given a beat stuck in flight, when ticks come due, then none is doubled, each is logged skipped, and the late beat logs its gap', async () => {
    const { logger, events } = recordingLogger();
    let release: (() => void) | undefined;
    let beats = 0;
    const clock = new HeartbeatClock({
      intervalMs: 1_000,
      logger,
      beat: () => {
        beats += 1;
        // The second beat hangs (NATS slow) until released.
        return beats === 2 ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
      },
    });

    clock.start(); // beat 1 at 0 ms
    await jest.advanceTimersByTimeAsync(1_000); // beat 2 starts, hangs
    await jest.advanceTimersByTimeAsync(3_000); // three ticks find it in flight
    expect(beats).toBe(2);
    expect(events.filter((event) => event['event'] === 'heartbeat_skipped')).toHaveLength(3);

    release!(); // beat 2 lands at 4,000 ms: 4,000 ms after beat 1
    await jest.advanceTimersByTimeAsync(0);
    expect(events.filter((event) => event['event'] === 'heartbeat_gap')).toEqual([expect.objectContaining({ gapMs: 4_000, intervalMs: 1_000 })]);

    await jest.advanceTimersByTimeAsync(1_000); // back on schedule: beat 3, no gap logged
    expect(beats).toBe(3);
    expect(events.filter((event) => event['event'] === 'heartbeat_gap')).toHaveLength(1);
    await clock.stop();
  });
});
