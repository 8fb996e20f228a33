import { z } from 'zod';
import { defineEvent, type EventEnvelope } from './event-envelope.schema';
import { nonNegativeIntegerSchema, positiveIntegerSchema } from './shared-fields.schema';
import { identifierSchema } from './subject-segment';
import { agentMessageSchema, type AgentMessage } from './unified-message.schema';

/** One unified agent message of a task's timeline. */
export interface TaskMessagePayload {
  taskId: string;
  /** Monotonic per task and continuing across attempts; `<taskId>:<seq>` is the publish msg id. */
  seq: number;
  attempt: number;
  message: AgentMessage;
}
export const taskMessagePayloadSchema = z.object({
  taskId: identifierSchema,
  seq: nonNegativeIntegerSchema,
  attempt: positiveIntegerSchema,
  message: agentMessageSchema,
});
export const TASK_MESSAGE = defineEvent({
  type: 'task.message',
  schemaVersion: 1,
  aggregate: 'task',
  payload: taskMessagePayloadSchema,
});
export type TaskMessageEvent = EventEnvelope<'task.message', TaskMessagePayload, 1>;
