import type { ThinkingLevel, ThinkingMapper } from '../backend/thinking-level';

/**
 * Pi's (and omp's) `--thinking` takes `off, minimal, low, medium, high, xhigh`; Pi clamps `xhigh`
 * to `high` for a model it does not know to go higher, and sends it as `reasoning_effort`.
 */
const PI_THINKING: Record<ThinkingLevel, string> = { off: 'off', low: 'low', medium: 'medium', high: 'high', max: 'xhigh' };

export const piThinking: ThinkingMapper = (level) => ({ delivery: { args: ['--thinking', PI_THINKING[level]], env: {} } });
