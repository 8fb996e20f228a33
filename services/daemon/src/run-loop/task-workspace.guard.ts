import type { ClaimedTask, TaskFailureReason } from '@switchyard/contracts';
import type { JsonLogger } from '@switchyard/service-kit';

type ReportFailure = (payload: { reason: TaskFailureReason; message: string; sessionId: string | null; detail: string | null; durationMs: number | null }) => Promise<unknown>;

/**
 * A daemon runs only its own workspace's tasks: its machine, files and credentials are that
 * workspace's. A claim handing it another workspace's task (a routing defect, or a runtime moved by a
 * forged registration) is failed at once, before the CLI starts; `internal`, since it is a
 * Switchyard defect and must not be retried onto this daemon again. True when the task was refused.
 */
export async function refuseTaskOfAnotherWorkspace(options: {
  readonly task: Pick<ClaimedTask, 'workspaceId'>;
  /** The workspace this daemon enrolled in. */
  readonly workspaceId: string;
  readonly log: JsonLogger;
  readonly report: ReportFailure;
}): Promise<boolean> {
  const { task, workspaceId } = options;
  if (task.workspaceId === workspaceId) return false;
  const message = `the daemon refused the task: it belongs to workspace ${task.workspaceId}, and this daemon serves workspace ${workspaceId}`;
  options.log.error({ event: 'task_of_another_workspace_refused', taskWorkspaceId: task.workspaceId, daemonWorkspaceId: workspaceId }, message);
  await options.report({ reason: 'internal', message, sessionId: null, detail: null, durationMs: null });
  return true;
}
