import type { z } from 'zod';

export const CONTRACT_VIOLATION_CODES = {
  /** Not an envelope at all: missing or malformed ids, type, version or timestamps. */
  invalid_envelope: 'invalid_envelope',
  unknown_event_type: 'unknown_event_type',
  unknown_command: 'unknown_command',
  /** A known type at a version this build does not understand (newer producer). */
  unsupported_schema_version: 'unsupported_schema_version',
  invalid_payload: 'invalid_payload',
} as const;

export type ContractViolationCode = keyof typeof CONTRACT_VIOLATION_CODES;

export type ContractIssue = z.core.$ZodIssue;

/** A message that does not match its contract. Never retryable: the same bytes fail again. */
export class ContractViolation extends Error {
  override readonly name = 'ContractViolation';
  readonly isRetryable = false;

  constructor(
    readonly code: ContractViolationCode,
    message: string,
    readonly issues: readonly ContractIssue[] = [],
    /** The `type` or `command` the input claimed, when it had one. */
    readonly claimedType: string | null = null,
  ) {
    super(message);
  }
}
