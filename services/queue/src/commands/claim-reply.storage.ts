import type { CommandReply, TaskClaimResult } from '@switchyard/contracts';
import { openLeaseToken, sealLeaseToken } from '../storage/lease-token';
import { deriveTaskToken } from '../storage/task-token';

type Reply = CommandReply<unknown>;

/**
 * A claim reply is kept for replays with no secret in clear: without its task tokens (a replay
 * derives them again) and with its lease tokens sealed (random, they cannot be derived; see
 * `sealLeaseToken`). The daemon whose first reply was lost gets exactly what it would have.
 */
export function claimReplyStorage(secret: string): { storedForm: (reply: Reply) => Reply; replayedForm: (reply: Reply) => Reply } {
  const mapSecrets = (reply: Reply, secrets: (task: TaskClaimResult['tasks'][number]) => { taskToken: string; leaseToken: string }): Reply => {
    if (!reply.ok) return reply;
    const result = reply.result as TaskClaimResult;
    return { ...reply, result: { tasks: result.tasks.map((task) => ({ ...task, ...secrets(task) })) } };
  };
  return {
    storedForm: (reply) => mapSecrets(reply, (task) => ({ taskToken: '[not stored]', leaseToken: sealLeaseToken(secret, task.leaseToken) })),
    replayedForm: (reply) =>
      mapSecrets(reply, (task) => ({ taskToken: deriveTaskToken(secret, task.taskId, task.attempt), leaseToken: openLeaseToken(secret, task.leaseToken) })),
  };
}
