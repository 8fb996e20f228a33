import { z } from 'zod';
import type { TaskSource } from '@switchyard/contracts';

export const TRIGGER_KINDS = ['assignment', 'mention', 'chat'] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

/** A task a request triggered (or had triggered before, when it was a retry). */
export const triggeredTaskSchema = z.object({
  agentId: z.string(),
  taskId: z.string(),
  trigger: z.enum(TRIGGER_KINDS),
});
export type TriggeredTask = z.infer<typeof triggeredTaskSchema>;

/** What `task.enqueue` is sent with, decided once when the trigger is written. */
export interface TriggerEnqueue {
  readonly source: TaskSource;
  readonly prompt: string;
  readonly priority: number;
  readonly forceFreshSession: boolean;
}

export function triggerKindOf(source: TaskSource): TriggerKind {
  if (source.kind === 'chat') return 'chat';
  if (source.kind === 'issue' && source.trigger === 'mention') return 'mention';
  return 'assignment';
}
