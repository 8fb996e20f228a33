import type { z } from 'zod';
import type { Equal, Expect } from './type-equality.helper';
import type {
  CommandCatalog,
  CommandName,
  CommandOf,
  CommandResults,
  DaemonCommandName,
  ServiceCommandName,
  SessionCommandCatalog,
  SessionResolveCommand,
  SwitchyardCommand,
  commandSchema,
} from './command-catalog';
import type { CommandReply } from './command-reply.schema';
import type * as session from './session-commands.schema';
import type * as task from './task-commands.schema';

type Request<TCommand extends CommandName> = z.infer<CommandCatalog[TCommand]['request']>;
type ReplySchemaOf<TCommand extends CommandName> = z.infer<CommandCatalog[TCommand]['reply']>;
type ResultSchemaOf<TCommand extends CommandName> = z.infer<CommandCatalog[TCommand]['result']>;

export type CommandPayloadTypeTests = [
  Expect<Equal<z.infer<typeof task.taskEnqueuePayloadSchema>, task.TaskEnqueuePayload>>,
  Expect<Equal<z.infer<typeof task.taskClaimPayloadSchema>, task.TaskClaimPayload>>,
  Expect<Equal<z.infer<typeof task.taskStartPayloadSchema>, task.TaskStartPayload>>,
  Expect<Equal<z.infer<typeof task.taskRenewPayloadSchema>, task.TaskRenewPayload>>,
  Expect<Equal<z.infer<typeof task.taskAwaitLocalDirectoryPayloadSchema>, task.TaskAwaitLocalDirectoryPayload>>,
  Expect<Equal<z.infer<typeof task.taskCompletePayloadSchema>, task.TaskCompletePayload>>,
  Expect<Equal<z.infer<typeof task.taskFailPayloadSchema>, task.TaskFailPayload>>,
  Expect<Equal<z.infer<typeof task.taskCancelPayloadSchema>, task.TaskCancelPayload>>,
  Expect<Equal<z.infer<typeof task.taskRequeuePayloadSchema>, task.TaskRequeuePayload>>,
  Expect<Equal<z.infer<typeof task.claimedTaskSchema>, task.ClaimedTask>>,
  Expect<Equal<z.infer<typeof task.taskClaimResultSchema>, task.TaskClaimResult>>,
  Expect<Equal<z.infer<typeof task.taskLeaseResultSchema>, task.TaskLeaseResult>>,
  Expect<Equal<z.infer<typeof task.taskStateResultSchema>, task.TaskStateResult>>,
  Expect<Equal<z.infer<typeof task.taskFailResultSchema>, task.TaskFailResult>>,
  Expect<Equal<z.infer<typeof task.taskCancelScopeSchema>, task.TaskCancelScope>>,
  Expect<Equal<z.infer<typeof task.taskCancelMatchingPayloadSchema>, task.TaskCancelMatchingPayload>>,
  Expect<Equal<z.infer<typeof task.taskCancelMatchingResultSchema>, task.TaskCancelMatchingResult>>,
  Expect<Equal<z.infer<typeof task.taskReleaseOrphansPayloadSchema>, task.TaskReleaseOrphansPayload>>,
  Expect<Equal<z.infer<typeof task.releasedAttemptSchema>, task.ReleasedAttempt>>,
  Expect<Equal<z.infer<typeof task.taskReleaseOrphansResultSchema>, task.TaskReleaseOrphansResult>>,
  Expect<Equal<z.infer<typeof task.taskTokenIntrospectPayloadSchema>, task.TaskTokenIntrospectPayload>>,
  Expect<Equal<z.infer<typeof task.taskTokenIntrospectResultSchema>, task.TaskTokenIntrospectResult>>,
];

export type CommandEnvelopeTypeTests = [
  Expect<Equal<{ [TCommand in CommandName]: Request<TCommand> }, { [TCommand in CommandName]: CommandOf<TCommand> }>>,
  Expect<Equal<{ [TCommand in CommandName]: ResultSchemaOf<TCommand> }, CommandResults>>,
  Expect<Equal<ReplySchemaOf<'task.claim'>, CommandReply<task.TaskClaimResult>>>,
  Expect<Equal<ReplySchemaOf<'task.fail'>, CommandReply<task.TaskFailResult>>>,
  Expect<Equal<ReplySchemaOf<'task.renew'>, CommandReply<task.TaskLeaseResult>>>,
  Expect<Equal<ReplySchemaOf<'task.cancel'>, CommandReply<task.TaskStateResult>>>,
  Expect<Equal<z.infer<typeof commandSchema>, SwitchyardCommand>>,
  Expect<Equal<SwitchyardCommand['command'], CommandName>>,
];

export type SessionCommandTypeTests = [
  Expect<Equal<z.infer<typeof session.sessionResolvePayloadSchema>, session.SessionResolvePayload>>,
  Expect<Equal<z.infer<typeof session.resumeDecisionSchema>, session.ResumeDecision>>,
  Expect<Equal<z.infer<SessionCommandCatalog['session.resolve']['request']>, SessionResolveCommand>>,
  Expect<Equal<z.infer<SessionCommandCatalog['session.resolve']['reply']>, CommandReply<session.ResumeDecision>>>,
  // The claim carries no resume decision: the daemon asks session-resume itself.
  Expect<Equal<Extract<keyof task.ClaimedTask, 'resume'>, never>>,
];

export type CommandSenderTypeTests = [
  // Daemon-sent commands travel on `cmd.<name>.<daemonId>`; the rest are the services'.
  Expect<
    Equal<
      DaemonCommandName,
      'task.claim' | 'task.start' | 'task.renew' | 'task.await_local_directory' | 'task.complete' | 'task.fail' | 'task.release_orphans' | 'session.resolve'
    >
  >,
  Expect<Equal<ServiceCommandName, 'task.enqueue' | 'task.cancel' | 'task.requeue' | 'task.cancel_matching' | 'task.token_introspect'>>,
];
