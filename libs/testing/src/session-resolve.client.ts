import { SESSION_COMMAND_CATALOG, subjects, uuidv7, type SessionResolveResult, type TaskSource } from '@switchyard/contracts';
import { requestReply, type MessagingConnection } from '@switchyard/messaging';

/**
 * Asks session-resume, as the queue does at claim, which session a new task of (agent, runtime,
 * source) would continue: tests use it to wait until the asynchronously projected index offers one.
 */
export async function askSessionResolve(
  connection: MessagingConnection,
  request: { readonly agentId: string; readonly runtimeId: string; readonly source: TaskSource },
): Promise<Awaited<ReturnType<typeof requestReply<unknown, SessionResolveResult>>>> {
  const requestId = uuidv7();
  return requestReply<unknown, SessionResolveResult>(connection, {
    subject: subjects.command('session.resolve'),
    data: SESSION_COMMAND_CATALOG['session.resolve'].request.parse({
      requestId,
      command: 'session.resolve',
      schemaVersion: 1,
      correlationId: requestId,
      payload: { taskId: uuidv7(), ...request, forceFreshSession: false },
    }),
    requestId,
    timeoutMs: 5_000,
  });
}
