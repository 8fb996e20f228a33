import { TechnicalError } from '@switchyard/contracts';

export const MCP_CONFIG_ERROR_CODES = {
  /** A CLI settings file we must merge into is not a JSON object; we refuse to clobber it. */
  unreadable_settings: 'unreadable_settings',
} as const;

export type McpConfigErrorCode = keyof typeof MCP_CONFIG_ERROR_CODES;

/** The servers could not be handed to the CLI in its native form; the same input fails again. */
export class McpConfigError extends TechnicalError<McpConfigErrorCode> {
  constructor(code: McpConfigErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, { isRetryable: false, cause: options.cause });
  }
}
