/** One bad configuration key: its name and what is wrong, never its value. */
export interface ConfigProblem {
  readonly key: string;
  readonly problem: string;
}

export const CONFIG_ERROR_CODE = 'config_invalid' as const;

/** Raised at boot when any configuration key is missing or malformed; lists every bad key at once. */
export class ConfigValidationError extends Error {
  readonly code = CONFIG_ERROR_CODE;
  readonly isRetryable = false;

  constructor(
    readonly service: string,
    readonly problems: readonly ConfigProblem[],
  ) {
    super(
      `${service}: invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map((item) => `  - ${item.key}: ${item.problem}`).join('\n'),
    );
    this.name = 'ConfigValidationError';
  }
}
