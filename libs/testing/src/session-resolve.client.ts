import { uuidv7, type ResumeDecision, type TaskSource } from '@switchyard/contracts';
import { sendSessionResolve, type MessagingConnection, type ReplyEnvelope } from '@switchyard/messaging';

/**
 * Asks session-resume, as the daemon does before a run, which session a new task of (agent, runtime,
 * source) would continue: tests use it to wait until the asynchronously projected index offers one.
 */
export function askSessionResolve(
  connection: MessagingConnection,
  request: { readonly agentId: string; readonly runtimeId: string; readonly source: TaskSource; readonly sender?: string },
): Promise<ReplyEnvelope<ResumeDecision>> {
  // Asked on `cmd.session.resolve.<sender>`, as a daemon asks; which daemon does not change the answer.
  const { sender = 'daemon-test-observer', ...asked } = request;
  return sendSessionResolve(connection, { sender, payload: { taskId: uuidv7(), ...asked, forceFreshSession: false }, timeoutMs: 5_000 });
}
