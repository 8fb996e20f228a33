import { Injectable } from '@nestjs/common';
import type { TaskCaller } from '../../workspace/common/caller';
import { QueueCommandsClient } from '../../workspace/tasks/queue-commands.client';
import { hashApiToken } from '../../workspace/tokens/api-token.codec';

/** Task tokens (minted by the queue per claimed attempt) start so; API tokens start `sy_`. */
export const TASK_TOKEN_PREFIX = 'syt_';

export function isTaskToken(token: string): boolean {
  return token.startsWith(TASK_TOKEN_PREFIX);
}

/**
 * Resolves a presented task token to its caller by asking the queue, which alone keeps the tokens
 * (`task.token_introspect`, by the token's SHA-256: the token itself never rides the bus). A
 * token whose attempt is not live resolves to nothing; a queue that does not answer throws (503).
 */
@Injectable()
export class TaskTokenVerifier {
  constructor(private readonly queue: QueueCommandsClient) {}

  async verify(token: string): Promise<TaskCaller | undefined> {
    const { result } = await this.queue.send('task.token_introspect', { tokenHash: hashApiToken(token) });
    if (!result.active) return undefined;
    return {
      kind: 'task',
      workspaceId: result.workspaceId,
      agentId: result.agentId,
      taskId: result.taskId,
      attempt: result.attempt,
      issueId: result.issueId,
      chatSessionId: result.chatSessionId,
    };
  }
}
