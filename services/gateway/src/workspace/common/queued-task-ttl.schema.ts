import { z } from 'zod';
import { QUEUED_TASK_TTL_SECONDS } from '@switchyard/contracts';

const { min, max } = QUEUED_TASK_TTL_SECONDS;

/** How long a task may wait unclaimed before it fails `expired`, in whole seconds (1 min .. 30 days). */
export const queuedTaskTtlSecondsSchema = z
  .int()
  .min(min, `must be at least ${min} seconds`)
  .max(max, `must be at most ${max} seconds (30 days)`);
