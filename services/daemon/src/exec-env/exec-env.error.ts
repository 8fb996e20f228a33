import { TechnicalError } from '@switchyard/contracts';

export const EXEC_ENV_ERROR_CODES = {
  /** An id that would become a path segment is not a plain name (traversal, separators, dots). */
  invalid_identifier: 'invalid_identifier',
  /** A path would leave its root, or crosses a symlink or a non-regular file we refuse to follow. */
  unsafe_path: 'unsafe_path',
  /** The agent's neutral MCP config does not match its schema. */
  invalid_mcp_config: 'invalid_mcp_config',
  /** No fresh work directory name was free after several random tries. */
  work_directory_unavailable: 'work_directory_unavailable',
} as const;

export type ExecEnvErrorCode = keyof typeof EXEC_ENV_ERROR_CODES;

/** Preparing a task's execution environment failed; the same input fails again unless said otherwise. */
export class ExecEnvError extends TechnicalError<ExecEnvErrorCode> {
  constructor(code: ExecEnvErrorCode, message: string, options: { isRetryable?: boolean; cause?: unknown } = {}) {
    super(code, message, { isRetryable: options.isRetryable ?? false, cause: options.cause });
  }
}
