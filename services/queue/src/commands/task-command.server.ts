import { Controller, Inject } from '@nestjs/common';
import { Payload, MessagePattern } from '@nestjs/microservices';
import type { DataSource } from 'typeorm';
import {
  COMMAND_NAMES,
  type CommandName,
  type CommandOf,
  type CommandReply,
  type TaskReleaseOrphansResult,
} from '@switchyard/contracts';
import { OutboxRelay } from '@switchyard/event-store';
import { commandResponder } from '@switchyard/messaging';
import { DATA_SOURCE } from '@switchyard/persistence';
import { WorkAvailableNudger } from '../claim/work-available.nudger';
import { QUEUE_CONFIG, TASK_TOKEN_SECRET } from '../queue.injection-keys';
import type { QueueConfig } from '../queue.config';
import { runIdempotentCommand } from './run-idempotent-command';
import { claimReplyStorage } from './claim-reply.storage';
import { TASK_COMMAND_HANDLERS, type CommandContext } from './task-command.handlers';

/** Commands that may put a task (back) into the queue: daemons of its runtime are nudged after them. */
const QUEUEING_COMMANDS: ReadonlySet<CommandName> = new Set(['task.enqueue', 'task.requeue', 'task.fail']);

/** Queue replicas share the commands. */
export const QUEUE_COMMAND_GROUP = 'queue';

/**
 * Answers every task command (`cmd.<name>`) in the `queue` group, so replicas share the load; the
 * messaging transport validates each request against its command's schema before it gets here.
 * Each runs idempotently by its request id in one transaction; after a commit the relay is woken
 * and daemons are told there is work, so nobody waits for a poll.
 */
@Controller()
export class TaskCommandServer {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(QUEUE_CONFIG) private readonly config: QueueConfig,
    @Inject(TASK_TOKEN_SECRET) private readonly taskTokenSecret: string,
    private readonly relay: OutboxRelay,
    private readonly nudger: WorkAvailableNudger,
  ) {}

  @MessagePattern(COMMAND_NAMES, commandResponder({ queueGroup: QUEUE_COMMAND_GROUP }))
  answer(@Payload() envelope: CommandOf<CommandName>): Promise<CommandReply<unknown>> {
    return this.handle(envelope.command, envelope);
  }

  private async handle<TName extends CommandName>(name: TName, envelope: CommandOf<TName>): Promise<CommandReply<unknown>> {
    // The request schema of this very command validated the payload before it got here.
    const handler = TASK_COMMAND_HANDLERS[name] as unknown as (payload: unknown, context: CommandContext) => Promise<CommandReply<unknown>>;
    const reply = await runIdempotentCommand({
      dataSource: this.dataSource,
      requestId: envelope.requestId,
      commandType: name,
      execute: (manager) =>
        handler(envelope.payload, {
          manager,
          cause: { requestId: envelope.requestId, correlationId: envelope.correlationId },
          now: new Date(),
          config: this.config,
          taskTokenSecret: this.taskTokenSecret,
        }),
      ...(name === 'task.claim' ? claimReplyStorage(this.taskTokenSecret) : {}),
    });
    if (reply.ok && !reply.alreadyApplied) {
      this.relay.wake();
      this.nudger.nudge(await this.runtimesWithNewWork(name, envelope, reply));
    }
    return reply;
  }

  /** The runtimes whose daemons should claim now: where the committed command queued work. */
  private async runtimesWithNewWork<TName extends CommandName>(name: TName, envelope: CommandOf<TName>, reply: { result: unknown }): Promise<string[]> {
    // The release names its retried attempts' runtimes; a retry runs on the runtime of the task it retries.
    if (name === 'task.release_orphans') {
      return (reply.result as TaskReleaseOrphansResult).tasks.filter((task) => task.willRetry).map((task) => task.runtimeId);
    }
    if (!QUEUEING_COMMANDS.has(name)) return [];
    const runtimeId = 'runtimeId' in envelope.payload ? envelope.payload.runtimeId : undefined;
    if (typeof runtimeId === 'string') return [runtimeId];
    const rows = await this.dataSource.query<Array<{ runtime_id: string }>>('select runtime_id from agent_task_queue where task_id = $1', [
      (envelope.payload as { taskId: string }).taskId,
    ]);
    return rows.map((row) => row.runtime_id);
  }
}
