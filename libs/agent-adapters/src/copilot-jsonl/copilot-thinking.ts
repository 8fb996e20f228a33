import type { ThinkingLevel, ThinkingMapper } from '../backend/thinking-level';

/** Copilot CLI's `--reasoning-effort` takes `none, minimal, low, medium, high, xhigh, max`. */
const COPILOT_REASONING_EFFORT: Record<ThinkingLevel, string> = { off: 'none', low: 'low', medium: 'medium', high: 'high', max: 'max' };

export const copilotThinking: ThinkingMapper = (level) => ({ delivery: { args: ['--reasoning-effort', COPILOT_REASONING_EFFORT[level]], env: {} } });
