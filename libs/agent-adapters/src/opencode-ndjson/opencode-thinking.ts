import type { ThinkingMapper } from '../backend/thinking-level';

/**
 * OpenCode's `--variant` picks one of the model's variants; for an OpenAI-compatible provider it
 * derives `low`, `medium` and `high` (sent as `reasoning_effort`) for a model declared `reasoning`,
 * which the wing declares only when the agent asks for thinking. `off` is that model undeclared
 * (no `reasoning_effort` on the turn's requests); nothing goes past `high`.
 */
export const openCodeThinking: ThinkingMapper = (level) => {
  if (level === 'max') return { unsupported: `OpenCode's OpenAI-compatible provider has no variant above "high"` };
  if (level === 'off') return { delivery: { args: [], env: {} } };
  return { delivery: { args: ['--variant', level], env: {} } };
};
