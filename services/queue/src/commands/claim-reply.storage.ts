import type { CommandReply, TaskClaimResult } from '@switchyard/contracts';
import { deriveTaskToken } from '../storage/task-token';

type Reply = CommandReply<unknown>;

/**
 * A claim reply is kept for replays without its task tokens (no secret at rest); a replay derives
 * them again, so the daemon whose first reply was lost gets exactly what it would have.
 */
export function claimReplyStorage(secret: string): { storedForm: (reply: Reply) => Reply; replayedForm: (reply: Reply) => Reply } {
  const mapTokens = (reply: Reply, token: (taskId: string, attempt: number) => string): Reply => {
    if (!reply.ok) return reply;
    const result = reply.result as TaskClaimResult;
    return { ...reply, result: { tasks: result.tasks.map((task) => ({ ...task, taskToken: token(task.taskId, task.attempt) })) } };
  };
  return {
    storedForm: (reply) => mapTokens(reply, () => '[not stored]'),
    replayedForm: (reply) => mapTokens(reply, (taskId, attempt) => deriveTaskToken(secret, taskId, attempt)),
  };
}
