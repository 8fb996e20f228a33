import type { CommandErrorCode } from '@switchyard/contracts';

/** Why the decider refused a command; each maps to the reply error code of the command edge. */
export const TASK_REFUSALS = {
  not_found: { errorCode: 'not_found', description: 'No task with this id was enqueued.' },
  already_exists: { errorCode: 'conflict', description: 'A different task was already enqueued under this id.' },
  invalid_input: { errorCode: 'invalid_request', description: 'The command contradicts itself (e.g. a deadline not after now).' },
  terminal: { errorCode: 'terminal_state', description: 'The task is completed, failed or cancelled: terminal is final.' },
  stale_attempt: { errorCode: 'stale_attempt', description: 'The report names an attempt or daemon that is no longer live.' },
  wrong_state: { errorCode: 'conflict', description: 'The command does not apply to the task in its current state.' },
  runtime_mismatch: { errorCode: 'conflict', description: 'The claiming daemon does not serve the task runtime.' },
  not_due: { errorCode: 'conflict', description: 'A deferred task was claimed before its fire time.' },
  past_expiry: { errorCode: 'conflict', description: 'A queued task was claimed after it expired; the sweeper expires it.' },
  deadline_not_passed: {
    errorCode: 'conflict',
    description: 'A timeout arrived before the deadline it claims (e.g. a renewal won the race).',
  },
} as const satisfies Record<string, { errorCode: CommandErrorCode; description: string }>;

export type TaskRefusalCode = keyof typeof TASK_REFUSALS;

export interface TaskRefusal {
  code: TaskRefusalCode;
  message: string;
}

export function commandErrorCodeOf(code: TaskRefusalCode): CommandErrorCode {
  return TASK_REFUSALS[code].errorCode;
}
