import type { ClaimedTask } from '@switchyard/contracts';
import { MIN_EXACT_SECRET_LENGTH, createMessageSanitizer, type MessageSanitizer } from '@switchyard/redaction';

/**
 * Values of this task that must never leave the machine in its timeline: the agent's env values
 * and the task and lease tokens. Values too short to match safely (`1`, `true`) are left out.
 */
export function taskSecretsOf(task: ClaimedTask): string[] {
  return [...new Set([...Object.values(task.agent.env), task.taskToken, task.leaseToken])].filter((value) => value.length >= MIN_EXACT_SECRET_LENGTH);
}

/** Redacts, cleans and caps every message of the task before it enters the outbox. */
export function taskMessageSanitizer(task: ClaimedTask): MessageSanitizer {
  return createMessageSanitizer({ exactSecrets: taskSecretsOf(task) });
}
