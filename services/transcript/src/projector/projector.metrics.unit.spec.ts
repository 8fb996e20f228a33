import { projectorLagSeconds } from './projector.metrics';

describe('projector lag in seconds', () => {
  const now = new Date('2026-12-03T12:00:30.000Z');
  const lastWrittenStoredAt = new Date('2026-12-03T12:00:00.000Z');

  it('is 0 when no message waits, however long ago the last one was written', () => {
    expect(projectorLagSeconds({ backlog: 0, lastWrittenStoredAt, now })).toBe(0);
    expect(projectorLagSeconds({ backlog: 0, lastWrittenStoredAt: undefined, now })).toBe(0);
  });

  it('is the time since JetStream stored the newest message written while messages wait', () => {
    expect(projectorLagSeconds({ backlog: 12, lastWrittenStoredAt, now })).toBe(30);
  });

  it('is unknown (NaN) while messages wait and this projector has written none yet', () => {
    expect(projectorLagSeconds({ backlog: 12, lastWrittenStoredAt: undefined, now })).toBeNaN();
  });

  it('is never negative when the clocks of NATS and the projector differ', () => {
    expect(projectorLagSeconds({ backlog: 1, lastWrittenStoredAt: new Date(now.getTime() + 2_000), now })).toBe(0);
  });
});
