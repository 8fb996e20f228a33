import type { ThinkingLevel, ThinkingMapper } from '../backend/thinking-level';

/**
 * Claude Code 2.1 takes two settings, and which one reaches the Messages API depends on the model:
 * `--effort` becomes `output_config.effort` (with `thinking: {type: "adaptive"}`) on models with
 * effort, `MAX_THINKING_TOKENS` becomes `thinking.budget_tokens` on budget models; `0` sends
 * `thinking: {type: "disabled"}` on both. Both are given, so the level holds whatever the model.
 */
const THINKING_BUDGET_TOKENS: Record<Exclude<ThinkingLevel, 'off'>, number> = { low: 4_000, medium: 10_000, high: 31_999, max: 63_999 };

export const claudeCodeThinking: ThinkingMapper = (level) => {
  if (level === 'off') return { delivery: { args: [], env: { MAX_THINKING_TOKENS: '0' } } };
  return { delivery: { args: ['--effort', level], env: { MAX_THINKING_TOKENS: String(THINKING_BUDGET_TOKENS[level]) } } };
};

const QWEN_REASONING_EFFORT: Record<Exclude<ThinkingLevel, 'off' | 'max'>, string> = { low: 'low', medium: 'medium', high: 'high' };

/**
 * Qwen Code 0.15 takes reasoning only from its settings (`model.generationConfig.reasoning`, sent
 * as the request's `reasoning: {effort}`; `false` sends none). The runtime's settings are shared by
 * its runs, so the level goes into a settings file of the run's own, named by
 * `QWEN_CODE_SYSTEM_SETTINGS_PATH` (merged over the user's). Its efforts for an OpenAI-compatible
 * provider stop at `high`.
 */
export const qwenCodeThinking: ThinkingMapper = (level) => {
  if (level === 'max') return { unsupported: 'Qwen Code has no reasoning effort above "high" for an OpenAI-compatible provider' };
  const reasoning = level === 'off' ? false : { effort: QWEN_REASONING_EFFORT[level] };
  return { delivery: { args: [], env: {}, settingsFile: { variable: 'QWEN_CODE_SYSTEM_SETTINGS_PATH', content: { model: { generationConfig: { reasoning } } } } } };
};
