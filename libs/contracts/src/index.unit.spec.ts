import * as contracts from './index';

describe('@switchyard/contracts', () => {
  it('exposes the public surface from one entry point', () => {
    expect(contracts.HEADERS.messageId).toBe('Nats-Msg-Id');
    expect(contracts.EVENT_TYPES).toContain('task.message');
    expect(contracts.COMMAND_NAMES).toContain('task.claim');
    expect(Object.keys(contracts.STREAM_CATALOG)).toEqual(['TASK_EVENTS', 'RUNTIME_EVENTS', 'SESSION_EVENTS', 'DEAD_LETTERS']);
    expect(contracts.subjects.command('task.claim', 'd1')).toBe('cmd.task.claim.d1');
    expect(contracts.isUuidv7(contracts.uuidv7())).toBe(true);
    expect(typeof contracts.parseEvent).toBe('function');
    expect(typeof contracts.createEvent).toBe('function');
  });

  it('keeps test helpers out of the public surface', () => {
    expect(Object.keys(contracts)).not.toContain('EVENT_PAYLOAD_SAMPLES');
    expect(Object.keys(contracts)).not.toContain('thrownBy');
  });
});
