import type { CommandReply, TaskClaimResult } from '@switchyard/contracts';
import { openAtRest, sealAtRest } from '../storage/at-rest.cipher';
import { openLeaseToken, sealLeaseToken } from '../storage/lease-token';
import { deriveTaskToken } from '../storage/task-token';

type Reply = CommandReply<unknown>;
type ClaimedTask = TaskClaimResult['tasks'][number];

const AGENT_SECRETS = 'agent secrets';

/** What a stored claimed task keeps instead of the agent's secrets. */
interface StoredClaimedTask extends ClaimedTask {
  readonly sealedAgentSecrets?: string;
}

/**
 * A claim reply is kept for replays with no secret in clear: without its task tokens (a replay
 * derives them again), with its lease tokens sealed (random, they cannot be derived; see
 * `sealLeaseToken`), and with the agent's env and MCP config sealed, their places emptied. The
 * daemon whose first reply was lost gets exactly what it would have.
 */
export function claimReplyStorage(secret: string): { storedForm: (reply: Reply) => Reply; replayedForm: (reply: Reply) => Reply } {
  const mapTasks = (reply: Reply, map: (task: StoredClaimedTask) => StoredClaimedTask): Reply => {
    if (!reply.ok) return reply;
    const result = reply.result as { tasks: StoredClaimedTask[] };
    return { ...reply, result: { tasks: result.tasks.map(map) } };
  };
  return {
    storedForm: (reply) =>
      mapTasks(reply, (task) => ({
        ...task,
        taskToken: '[not stored]',
        leaseToken: sealLeaseToken(secret, task.leaseToken),
        agent: { ...task.agent, env: {}, mcpConfig: null },
        sealedAgentSecrets: sealAtRest(secret, AGENT_SECRETS, JSON.stringify({ env: task.agent.env, mcpConfig: task.agent.mcpConfig })),
      })),
    replayedForm: (reply) =>
      mapTasks(reply, ({ sealedAgentSecrets, ...task }) => {
        const agentSecrets = sealedAgentSecrets === undefined ? undefined : (JSON.parse(openAtRest(secret, AGENT_SECRETS, sealedAgentSecrets)) as Pick<ClaimedTask['agent'], 'env' | 'mcpConfig'>);
        return {
          ...task,
          taskToken: deriveTaskToken(secret, task.taskId, task.attempt),
          leaseToken: openLeaseToken(secret, task.leaseToken),
          ...(agentSecrets ? { agent: { ...task.agent, ...agentSecrets } } : {}),
        };
      }),
  };
}
