import { lateHeartbeatGapMs } from './heartbeat-gap';

describe('late heartbeat gap', () => {
  it('given a 5 s interval, a beat 6 s after the previous is on time and one 6.001 s after is a gap of that length', () => {
    expect(lateHeartbeatGapMs({ previousAt: 10_000, at: 16_000, intervalMs: 5_000 })).toBeUndefined();
    expect(lateHeartbeatGapMs({ previousAt: 10_000, at: 16_001, intervalMs: 5_000 })).toBe(6_001);
  });

  it('a beat early or at the same instant is no gap', () => {
    expect(lateHeartbeatGapMs({ previousAt: 10_000, at: 10_000, intervalMs: 5_000 })).toBeUndefined();
    expect(lateHeartbeatGapMs({ previousAt: 10_000, at: 12_000, intervalMs: 5_000 })).toBeUndefined();
  });
});
