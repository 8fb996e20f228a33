import { z } from 'zod';
import type { ResumeDecision } from './agent-snapshot.schema';
import { identifierSchema } from './subject-token';
import { taskSourceSchema, type TaskSource } from './task-source.schema';

// The session-resume service's request/reply command: which CLI session a new task continues.

export interface SessionResolvePayload {
  /** The task about to run; it is never its own prior session. */
  taskId: string;
  agentId: string;
  runtimeId: string;
  source: TaskSource;
  /** Rerun and chat `/new`: always fresh. */
  forceFreshSession: boolean;
}
export const sessionResolvePayloadSchema = z.object({
  taskId: identifierSchema,
  agentId: identifierSchema,
  runtimeId: identifierSchema,
  source: taskSourceSchema,
  forceFreshSession: z.boolean(),
});

/** A decided `ResumeDecision`: the service never answers `undecided`. */
export type SessionResolveResult = Exclude<ResumeDecision, { status: 'undecided' }>;
export const sessionResolveResultSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('fresh'), reason: z.string().min(1) }),
  z.object({ status: z.literal('resume'), sessionId: z.string().min(1), workDir: z.string().min(1).nullable() }),
]);
