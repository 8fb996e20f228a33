import { uuidv7, type ResumeDecision, type TaskSource } from '@switchyard/contracts';
import { sendSessionResolve, type MessagingConnection, type ReplyEnvelope } from '@switchyard/messaging';

/**
 * Asks session-resume, as the daemon does before a run, which session a new task of (agent, runtime,
 * source) would continue: tests use it to wait until the asynchronously projected index offers one.
 */
export function askSessionResolve(
  connection: MessagingConnection,
  request: { readonly agentId: string; readonly runtimeId: string; readonly source: TaskSource },
): Promise<ReplyEnvelope<ResumeDecision>> {
  return sendSessionResolve(connection, { payload: { taskId: uuidv7(), ...request, forceFreshSession: false }, timeoutMs: 5_000 });
}
