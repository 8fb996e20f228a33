import { COMMAND_ERROR_CODES } from '@switchyard/contracts';
import { TASK_REFUSALS, commandErrorCodeOf, type TaskRefusalCode } from './task-refusal';

describe('task refusals', () => {
  it('map each refusal to the reply error code of the command edge', () => {
    const mapped = Object.fromEntries((Object.keys(TASK_REFUSALS) as TaskRefusalCode[]).map((code) => [code, commandErrorCodeOf(code)]));
    expect(mapped).toEqual({
      not_found: 'not_found',
      already_exists: 'conflict',
      invalid_input: 'invalid_request',
      terminal: 'terminal_state',
      stale_attempt: 'stale_attempt',
      wrong_state: 'conflict',
      runtime_mismatch: 'conflict',
      not_due: 'conflict',
      past_expiry: 'conflict',
      deadline_not_passed: 'conflict',
    });
    for (const errorCode of Object.values(mapped)) expect(Object.keys(COMMAND_ERROR_CODES)).toContain(errorCode);
  });
});
