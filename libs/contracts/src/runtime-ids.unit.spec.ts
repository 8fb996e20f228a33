import { isRuntimeOfDaemon, runtimeIdOf } from './runtime-ids';

describe('runtime ids', () => {
  it('name their daemon: a daemon owns only the ids under its own', () => {
    const runtimeId = runtimeIdOf('daemon-0a1b2c3d4e5f60718293', 'claude-code');

    expect(runtimeId).toBe('daemon-0a1b2c3d4e5f60718293-claude-code');
    expect(isRuntimeOfDaemon(runtimeId, 'daemon-0a1b2c3d4e5f60718293')).toBe(true);
    expect(isRuntimeOfDaemon(runtimeId, 'daemon-ffffffffffffffffffff')).toBe(false);
    expect(isRuntimeOfDaemon('daemon-0a1b2c3d4e5f60718293-', 'daemon-0a1b2c3d4e5f60718293')).toBe(false);
    expect(isRuntimeOfDaemon('runtime-1', 'daemon-1')).toBe(false);
  });
});
