import { COMMAND_ERROR_CODES, type CommandErrorCode } from '@switchyard/contracts';
import { apiErrorOfCommandError } from './queue-commands.client';

describe('queue refusals at the REST edge', () => {
  const expected: Record<CommandErrorCode, [number, string]> = {
    invalid_request: [422, 'invalid_request'],
    not_found: [404, 'not_found'],
    conflict: [409, 'conflict'],
    terminal_state: [409, 'terminal_state'],
    stale_attempt: [409, 'stale_attempt'],
    sender_mismatch: [409, 'conflict'],
    unavailable: [503, 'queue_unavailable'],
    internal: [502, 'queue_error'],
  };

  it.each(Object.keys(COMMAND_ERROR_CODES) as CommandErrorCode[])('maps %s', (code) => {
    const error = apiErrorOfCommandError({ code, message: 'because', retryable: false });
    expect([error.status, error.code]).toEqual(expected[code]);
    expect(error.message).toBe('the queue refused: because');
  });
});
