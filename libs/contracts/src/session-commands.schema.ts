import { z } from 'zod';
import { identifierSchema } from './subject-segment';
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

/**
 * Which session a task continues, as session-resume answers: `fresh` with one reason code, or
 * `resume` with the prior session and the work dir it ran in (null when none is known). The daemon
 * asks before each run and checks the answer against its own disk (see docs/architecture/daemon.md).
 */
/**
 * A `fresh` answer may name the prior task's work dir: its session is not continued (poisoned,
 * retired, another runtime), but its files carry on when the daemon still has them.
 */
export type ResumeDecision = { status: 'fresh'; reason: string; workDir?: string | null } | { status: 'resume'; sessionId: string; workDir: string | null };
export const resumeDecisionSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('fresh'), reason: z.string().min(1), workDir: z.string().min(1).nullable().optional() }),
  z.object({ status: z.literal('resume'), sessionId: z.string().min(1), workDir: z.string().min(1).nullable() }),
]);
