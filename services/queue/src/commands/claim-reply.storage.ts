import type { CommandReply, TaskClaimResult } from '@switchyard/contracts';
import { openLeaseToken, sealLeaseToken } from '../storage/lease-token';
import { deriveTaskToken } from '../storage/task-token';

type Reply = CommandReply<unknown>;
type ClaimedTask = TaskClaimResult['tasks'][number];

/**
 * A claim reply is kept for replays with no secret in clear: without its task tokens (a replay
 * derives them again) and with its lease tokens sealed (random, they cannot be derived; see
 * `sealLeaseToken`). The agent's secrets are already sealed to the claiming daemon's key. The
 * daemon whose first reply was lost gets exactly what it would have.
 */
export function claimReplyStorage(secret: string): { storedForm: (reply: Reply) => Reply; replayedForm: (reply: Reply) => Reply } {
  const mapTasks = (reply: Reply, map: (task: ClaimedTask) => ClaimedTask): Reply => {
    if (!reply.ok) return reply;
    const result = reply.result as TaskClaimResult;
    return { ...reply, result: { tasks: result.tasks.map(map) } };
  };
  return {
    storedForm: (reply) => mapTasks(reply, (task) => ({ ...task, taskToken: '[not stored]', leaseToken: sealLeaseToken(secret, task.leaseToken) })),
    replayedForm: (reply) =>
      mapTasks(reply, (task) => ({ ...task, taskToken: deriveTaskToken(secret, task.taskId, task.attempt), leaseToken: openLeaseToken(secret, task.leaseToken) })),
  };
}
