import { queuedTaskExpiryOf } from './queued-task-expiry';

const NOW = new Date('2026-12-02T10:00:00.000Z');

describe('queuedTaskExpiryOf', () => {
  it('uses the workspace default when the request names no TTL', () => {
    expect(queuedTaskExpiryOf({ expiresInSeconds: undefined, workspaceDefaultSeconds: 600, now: NOW, fireAt: null })).toEqual({
      expiresAt: '2026-12-02T10:10:00.000Z',
      queuedTtlMs: 600_000,
    });
  });

  it('lets the request’s TTL override the workspace default', () => {
    expect(queuedTaskExpiryOf({ expiresInSeconds: 120, workspaceDefaultSeconds: 600, now: NOW, fireAt: null })).toEqual({
      expiresAt: '2026-12-02T10:02:00.000Z',
      queuedTtlMs: 120_000,
    });
  });

  it('lets the request say null: no expiry, whatever the workspace default', () => {
    expect(queuedTaskExpiryOf({ expiresInSeconds: null, workspaceDefaultSeconds: 600, now: NOW, fireAt: null })).toEqual({ expiresAt: null, queuedTtlMs: null });
  });

  it('has no expiry when neither names a TTL', () => {
    expect(queuedTaskExpiryOf({ expiresInSeconds: undefined, workspaceDefaultSeconds: null, now: NOW, fireAt: null })).toEqual({ expiresAt: null, queuedTtlMs: null });
  });

  it('counts a deferred task’s TTL from its fire time', () => {
    expect(queuedTaskExpiryOf({ expiresInSeconds: undefined, workspaceDefaultSeconds: 600, now: NOW, fireAt: '2026-12-03T08:00:00.000Z' })).toEqual({
      expiresAt: '2026-12-03T08:10:00.000Z',
      queuedTtlMs: 600_000,
    });
  });
});
