import { formatChildLine } from './terminal-output';

describe('child log lines on the terminal', () => {
  it('shows lifecycle lines and warnings, hides routine info lines', () => {
    expect(formatChildLine('queue', JSON.stringify({ level: 'info', event: 'service_listening', msg: 'queue listening on http://127.0.0.1:1' }), false)).toBe(
      '[queue] queue listening on http://127.0.0.1:1',
    );
    expect(formatChildLine('queue', JSON.stringify({ level: 'warn', msg: 'nats reconnecting' }), false)).toBe('[queue] WARN nats reconnecting');
    expect(formatChildLine('queue', JSON.stringify({ level: 'info', msg: 'claimed task' }), false)).toBeUndefined();
  });

  it('shows every line when verbose', () => {
    expect(formatChildLine('queue', JSON.stringify({ level: 'info', msg: 'claimed task' }), true)).toBe('[queue] claimed task');
  });

  it('always shows lines that are not JSON (crash traces)', () => {
    expect(formatChildLine('daemon', 'TypeError: x is not a function', false)).toBe('[daemon] TypeError: x is not a function');
    expect(formatChildLine('daemon', '   ', false)).toBeUndefined();
  });
});
