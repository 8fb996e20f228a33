import { queuedExpiresAtOf } from './queued-task-ttl';

const NOW = new Date('2026-12-02T10:00:00.000Z');

describe('queuedExpiresAtOf', () => {
  it('counts the TTL from now for a task claimable at once', () => {
    expect(queuedExpiresAtOf({ now: NOW, fireAt: null, queuedTtlMs: 600_000 })).toBe('2026-12-02T10:10:00.000Z');
  });

  it('counts the TTL from the fire time of a deferred task, not from now', () => {
    expect(queuedExpiresAtOf({ now: NOW, fireAt: '2026-12-02T12:00:00.000Z', queuedTtlMs: 600_000 })).toBe('2026-12-02T12:10:00.000Z');
  });

  it('counts from now when the fire time has passed already', () => {
    expect(queuedExpiresAtOf({ now: NOW, fireAt: '2026-12-02T09:00:00.000Z', queuedTtlMs: 600_000 })).toBe('2026-12-02T10:10:00.000Z');
  });

  it('has no expiry without a TTL', () => {
    expect(queuedExpiresAtOf({ now: NOW, fireAt: '2026-12-02T12:00:00.000Z', queuedTtlMs: null })).toBeNull();
  });
});
