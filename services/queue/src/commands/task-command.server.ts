import { Controller, Inject } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import type { DataSource, EntityManager } from 'typeorm';
import {
  COMMAND_NAMES,
  type CommandName,
  type CommandOf,
  type CommandPayloadOf,
  type CommandReply,
  type TaskCancelMatchingResult,
  type TaskReleaseOrphansResult,
  type TaskState,
  type TaskStateResult,
} from '@switchyard/contracts';
import { OutboxRelay } from '@switchyard/event-store';
import { commandResponder, type CommandRequestContext } from '@switchyard/messaging';
import { DATA_SOURCE, type SecretKeyring } from '@switchyard/persistence';
import type { JsonLogger } from '@switchyard/service-kit';
import { WorkAvailableNudger } from '../claim/work-available.nudger';
import { QueueMetrics } from '../metrics/queue.metrics';
import { QUEUE_CONFIG, QUEUE_LOGGER, SECRET_KEYRING, TASK_TOKEN_SECRET } from '../queue.injection-keys';
import type { QueueConfig } from '../queue.config';
import { runIdempotentCommand, type ReplyRecord } from './run-idempotent-command';
import { CancelNoticePublisher } from './cancel-notice.publisher';
import { claimReplyStorage } from './claim-reply.storage';
import { senderRefusal, withSenderAsDaemon } from './command-sender';
import { LeaseRefusedError } from './report-lease';
import { TASK_COMMAND_HANDLERS, type CommandContext } from './task-command.handlers';

/** Commands that may put a task (back) into the queue: daemons of its runtime are nudged after them. */
const QUEUEING_COMMANDS: ReadonlySet<CommandName> = new Set(['task.enqueue', 'task.requeue', 'task.fail']);

/** States in which a cancel is pending rather than done: the attempt's daemon must stop it. */
const CANCEL_PENDING_STATES: ReadonlySet<TaskState> = new Set(['dispatched', 'waiting_local_directory', 'running']);

/**
 * Commands that only read: answered outside `runIdempotentCommand`, so a repeat is simply read
 * again and nothing is recorded (an agent's every call back asks `task.token_introspect`).
 */
const READ_ONLY_COMMANDS: ReadonlySet<CommandName> = new Set(['task.token_introspect']);

/** A read keeps no reply. */
const NOTHING_KEPT: ReplyRecord<unknown> = { alongside: () => [] };

/** Queue replicas share the commands. */
export const QUEUE_COMMAND_GROUP = 'queue';

/**
 * Answers every task command in the `queue` group, so replicas share the load: daemon-sent ones on
 * `cmd.<name>.<daemonId>`, service-sent ones on `cmd.<name>`; the messaging transport validates
 * each request against its command's schema before it gets here. A daemon-sent command acts for
 * its sender, the daemon its subject names: a payload naming another daemon is refused
 * `sender_mismatch` and changes nothing, and so is a start, renew, await, complete or fail for an attempt
 * the sender does not hold or without that attempt's lease token (see `withLeaseChecked`); a
 * claim takes only runtimes the sender registered. Each runs idempotently by its request id in one
 * transaction; after a commit the relay is woken, daemons are told there is work, and the daemon
 * of an attempt whose cancel committed is told to stop, so nobody waits for a poll.
 */
@Controller()
export class TaskCommandServer {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(QUEUE_CONFIG) private readonly config: QueueConfig,
    @Inject(QUEUE_LOGGER) private readonly logger: JsonLogger,
    @Inject(TASK_TOKEN_SECRET) private readonly taskTokenSecret: string,
    @Inject(SECRET_KEYRING) private readonly secretKeyring: SecretKeyring,
    private readonly relay: OutboxRelay,
    private readonly nudger: WorkAvailableNudger,
    private readonly cancelNotices: CancelNoticePublisher,
    private readonly metrics: QueueMetrics,
  ) {}

  @MessagePattern(COMMAND_NAMES, commandResponder({ queueGroup: QUEUE_COMMAND_GROUP }))
  answer(@Payload() envelope: CommandOf<CommandName>, @Ctx() context: CommandRequestContext): Promise<CommandReply<unknown>> {
    return this.handle(envelope.command, envelope, context.getSender());
  }

  private async handle<TName extends CommandName>(name: TName, envelope: CommandOf<TName>, sender: string | undefined): Promise<CommandReply<unknown>> {
    const refusal = senderRefusal(name, envelope.payload, sender);
    if (refusal) {
      this.logger.warn({ event: 'command_sender_mismatch', command: name, sender, requestId: envelope.requestId }, refusal.error.message);
      return refusal;
    }
    const payload = withSenderAsDaemon(name, envelope.payload, sender) as CommandPayloadOf<TName>;
    // The request schema of this very command validated the payload before it got here.
    const handler = TASK_COMMAND_HANDLERS[name] as unknown as (payload: unknown, context: CommandContext) => Promise<CommandReply<unknown>>;
    const contextOf = (manager: EntityManager, replyRecord: ReplyRecord<unknown>): CommandContext => ({
      manager,
      cause: { requestId: envelope.requestId, correlationId: envelope.correlationId },
      now: new Date(),
      config: this.config,
      taskTokenSecret: this.taskTokenSecret,
      secretKeyring: this.secretKeyring,
      logger: this.logger,
      replyRecord,
    });
    if (READ_ONLY_COMMANDS.has(name)) return handler(payload, contextOf(this.dataSource.manager, NOTHING_KEPT));
    // A command that names the runtime it queues for (an enqueue) reads that runtime's daemons
    // while its transaction runs: the nudge after the commit then waits for no read.
    const namedRuntime = runtimeNamedBy(name, payload);
    const daemonsToNudge = namedRuntime === undefined ? undefined : this.nudger.daemonsOf([namedRuntime]);
    let reply: CommandReply<unknown>;
    try {
      reply = await runIdempotentCommand({
        dataSource: this.dataSource,
        requestId: envelope.requestId,
        commandType: name,
        sender: sender ?? null,
        execute: (manager, replyRecord) => handler(payload, contextOf(manager, replyRecord)),
        onCommitted: this.metrics.observeCommitted,
        ...(name === 'task.claim' ? claimReplyStorage(this.taskTokenSecret) : {}),
      });
    } catch (error) {
      if (!(error instanceof LeaseRefusedError)) throw error;
      this.logger.warn({ event: 'command_lease_mismatch', command: name, sender, requestId: envelope.requestId }, error.message);
      return error.reply;
    }
    if (reply.ok && !reply.alreadyApplied) {
      this.relay.wake();
      if (daemonsToNudge) this.nudger.tell(await daemonsToNudge);
      else await this.nudger.nudge(await this.runtimesWithNewWork(name, payload, reply));
      await this.cancelNotices.publish(tasksWithPendingCancel(name, reply));
    }
    return reply;
  }

  /**
   * The runtimes whose daemons should claim now, for a committed command that names none itself
   * (those are nudged from the read made during their transaction): where it queued work.
   */
  private async runtimesWithNewWork<TName extends CommandName>(name: TName, payload: CommandPayloadOf<TName>, reply: { result: unknown }): Promise<string[]> {
    // The release names its retried attempts' runtimes; a retry runs on the runtime of the task it retries.
    if (name === 'task.release_orphans') {
      return (reply.result as TaskReleaseOrphansResult).tasks.filter((task) => task.willRetry).map((task) => task.runtimeId);
    }
    if (!QUEUEING_COMMANDS.has(name)) return [];
    const rows = await this.dataSource.query<Array<{ runtime_id: string }>>('select runtime_id from agent_task_queue where task_id = $1', [
      (payload as { taskId: string }).taskId,
    ]);
    return rows.map((row) => row.runtime_id);
  }
}

/** The runtime a queueing command names in its payload (an enqueue); undefined when it names a task instead. */
function runtimeNamedBy(name: CommandName, payload: object): string | undefined {
  if (!QUEUEING_COMMANDS.has(name) || !('runtimeId' in payload)) return undefined;
  return typeof payload.runtimeId === 'string' ? payload.runtimeId : undefined;
}

/** The tasks a committed cancel left waiting for their attempt's daemon to stop. */
function tasksWithPendingCancel(name: CommandName, reply: { result: unknown }): string[] {
  const reached =
    name === 'task.cancel' ? [reply.result as TaskStateResult] : name === 'task.cancel_matching' ? (reply.result as TaskCancelMatchingResult).tasks : [];
  return reached.filter((task) => CANCEL_PENDING_STATES.has(task.state)).map((task) => task.taskId);
}
