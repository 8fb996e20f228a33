import type { ThinkingLevel, ThinkingMapper } from '../backend/thinking-level';

/**
 * Codex's `model_reasoning_effort` as a per-run `-c` override on `codex app-server` (the shared
 * `config.toml` stays the runtime's), sent as the Responses API's `reasoning.effort`.
 */
const CODEX_REASONING_EFFORT: Record<ThinkingLevel, string> = { off: 'none', low: 'low', medium: 'medium', high: 'high', max: 'xhigh' };

export const codexThinking: ThinkingMapper = (level) => ({ delivery: { args: ['-c', `model_reasoning_effort="${CODEX_REASONING_EFFORT[level]}"`], env: {} } });
