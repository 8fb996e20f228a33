/**
 * How one CLI of the Claude stream-json family differs on the wire. The translator and the backends
 * read these facts; everything else is shared.
 */
export interface StreamJsonDialect {
  /** The runtime identity (`RUNTIME_IDENTITY_CATALOG`). */
  readonly identity: 'claude-code' | 'qwen-code' | 'codebuddy' | 'cursor-agent';
  /** Prefix of error codes the translator emits (`claude_error_during_execution`). */
  readonly errorCodePrefix: string;
  /** `provider` on reported usage. */
  readonly usageProvider: string;
  /**
   * Where the run's own token usage comes from:
   * - `result`: the `result` event (`modelUsage` per model, else its `usage` for the session model);
   * - `assistant-messages`: the sum of the per-call `usage` on `assistant` events, for CLIs whose
   *   `result.usage` is a session total that keeps counting across resumed runs (Qwen Code).
   */
  readonly usageSource: 'result' | 'assistant-messages';
  /** How a refused `--resume` reads in a `result` error, when the CLI says it in-band. */
  readonly resumeRejectedInResult?: RegExp;
  /** How it reads in prose on stderr or a plain stdout line, when the CLI exits without a result. */
  readonly resumeRejectedInProse?: RegExp;
}

export const CLAUDE_CODE_DIALECT: StreamJsonDialect = {
  identity: 'claude-code',
  errorCodePrefix: 'claude',
  usageProvider: 'anthropic',
  usageSource: 'result',
  resumeRejectedInResult: /No conversation found with session ID/i,
};

/**
 * Qwen Code 0.15: `result.usage` is the session's running total (a resumed run includes the earlier
 * runs), no `modelUsage`; a failed `result` carries `error.message`; an unknown `--resume` id exits 1
 * with nothing on stdout and `No saved session found with ID <id>.` on stderr.
 */
export const QWEN_CODE_DIALECT: StreamJsonDialect = {
  identity: 'qwen-code',
  errorCodePrefix: 'qwen',
  usageProvider: 'qwen',
  usageSource: 'assistant-messages',
  resumeRejectedInProse: /No saved session found with ID/i,
};

/**
 * CodeBuddy is a Claude Code fork: same events plus `log` lines; usage as `modelUsage`, or `usage`
 * with the model on the result. Its refusal of an unknown `--resume` id is not documented; the
 * fork's Claude wording is assumed, in the result and in prose.
 */
export const CODEBUDDY_DIALECT: StreamJsonDialect = {
  identity: 'codebuddy',
  errorCodePrefix: 'codebuddy',
  usageProvider: 'tencent',
  usageSource: 'result',
  resumeRejectedInResult: /No conversation found with session ID/i,
  resumeRejectedInProse: /No conversation found with session ID/i,
};

/**
 * Cursor agent: `tool_call` started/completed events and `thinking` deltas instead of content
 * blocks, camelCase `usage` on the result. An unknown `--resume` id is not refused: the CLI starts a
 * fresh chat under that id, so a rejected resume cannot be detected.
 */
export const CURSOR_AGENT_DIALECT: StreamJsonDialect = {
  identity: 'cursor-agent',
  errorCodePrefix: 'cursor',
  usageProvider: 'cursor',
  usageSource: 'result',
};
