/**
 * The adapter's own note when the CLI died before reading its prompt. It is a broken pipe of ours,
 * not a provider's network error, so failure classification takes it as no evidence.
 */
export const PROMPT_UNDELIVERED_NOTE = 'could not deliver the prompt';
