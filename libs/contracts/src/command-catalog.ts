import { z } from 'zod';
import { ContractViolation } from './contract-violation.error';
import { commandReplySchema } from './command-reply.schema';
import { positiveIntegerSchema } from './shared-fields.schema';
import { identifierSchema } from './subject-segment';
import * as session from './session-commands.schema';
import * as task from './task-commands.schema';
import { uuidv7 } from './uuidv7';

/**
 * A command request, sent request/reply: on `cmd.<command>.<daemonId>` when a daemon sends it (the
 * responder reads the sender from the subject, which NATS permissions vouch for), on
 * `cmd.<command>` when a service does. `requestId` is the idempotency key.
 */
export interface CommandEnvelope<TCommand extends string = string, TPayload = unknown, TVersion extends number = number> {
  /** Retrying with the same id must return the first outcome, never apply twice. */
  requestId: string;
  command: TCommand;
  schemaVersion: TVersion;
  correlationId: string;
  payload: TPayload;
}

/**
 * Who sends a command. A daemon-sent one carries the daemon's id as the last subject token, so a
 * daemon's NATS identity can be allowed its own commands only; a service-sent one has no sender token.
 */
export type CommandSender = 'daemon' | 'service';

function defineCommand<
  const TCommand extends string,
  const TVersion extends number,
  const TSentBy extends CommandSender,
  TPayload extends z.ZodType,
  TResult extends z.ZodType,
>(definition: {
  command: TCommand;
  schemaVersion: TVersion;
  sentBy: TSentBy;
  payload: TPayload;
  result: TResult;
}) {
  const request = z.object({
    requestId: identifierSchema,
    command: z.literal(definition.command),
    schemaVersion: z.literal(definition.schemaVersion),
    correlationId: z.string().min(1),
    payload: definition.payload,
  });
  return { ...definition, request, reply: commandReplySchema(definition.result) };
}

const commandBaseSchema = z.object({
  requestId: identifierSchema,
  command: z.string().min(1),
  schemaVersion: positiveIntegerSchema,
  correlationId: z.string().min(1),
  payload: z.unknown(),
});

export const COMMAND_CATALOG = {
  'task.enqueue': defineCommand({
    command: 'task.enqueue',
    schemaVersion: 1,
    sentBy: 'service',
    payload: task.taskEnqueuePayloadSchema,
    result: task.taskStateResultSchema,
  }),
  'task.claim': defineCommand({
    command: 'task.claim',
    schemaVersion: 1,
    sentBy: 'daemon',
    payload: task.taskClaimPayloadSchema,
    result: task.taskClaimResultSchema,
  }),
  'task.start': defineCommand({
    command: 'task.start',
    schemaVersion: 1,
    sentBy: 'daemon',
    payload: task.taskStartPayloadSchema,
    result: task.taskLeaseResultSchema,
  }),
  'task.renew': defineCommand({
    command: 'task.renew',
    schemaVersion: 1,
    sentBy: 'daemon',
    payload: task.taskRenewPayloadSchema,
    result: task.taskLeaseResultSchema,
  }),
  'task.await_local_directory': defineCommand({
    command: 'task.await_local_directory',
    schemaVersion: 1,
    sentBy: 'daemon',
    payload: task.taskAwaitLocalDirectoryPayloadSchema,
    result: task.taskLeaseResultSchema,
  }),
  'task.complete': defineCommand({
    command: 'task.complete',
    schemaVersion: 1,
    sentBy: 'daemon',
    payload: task.taskCompletePayloadSchema,
    result: task.taskStateResultSchema,
  }),
  'task.fail': defineCommand({
    command: 'task.fail',
    schemaVersion: 1,
    sentBy: 'daemon',
    payload: task.taskFailPayloadSchema,
    result: task.taskFailResultSchema,
  }),
  'task.cancel': defineCommand({
    command: 'task.cancel',
    schemaVersion: 1,
    sentBy: 'service',
    payload: task.taskCancelPayloadSchema,
    result: task.taskStateResultSchema,
  }),
  'task.requeue': defineCommand({
    command: 'task.requeue',
    schemaVersion: 1,
    sentBy: 'service',
    payload: task.taskRequeuePayloadSchema,
    result: task.taskStateResultSchema,
  }),
  'task.cancel_matching': defineCommand({
    command: 'task.cancel_matching',
    schemaVersion: 1,
    sentBy: 'service',
    payload: task.taskCancelMatchingPayloadSchema,
    result: task.taskCancelMatchingResultSchema,
  }),
  'task.release_orphans': defineCommand({
    command: 'task.release_orphans',
    schemaVersion: 1,
    sentBy: 'daemon',
    payload: task.taskReleaseOrphansPayloadSchema,
    result: task.taskReleaseOrphansResultSchema,
  }),
  // A read: answered without being recorded, so the agent's every call leaves no processed_command row.
  'task.token_introspect': defineCommand({
    command: 'task.token_introspect',
    schemaVersion: 1,
    sentBy: 'service',
    payload: task.taskTokenIntrospectPayloadSchema,
    result: task.taskTokenIntrospectResultSchema,
  }),
} as const;

/**
 * Commands answered by the session-resume service. Kept out of COMMAND_CATALOG on purpose: the
 * queue serves every entry of that catalog on its queue group.
 */
export const SESSION_COMMAND_CATALOG = {
  'session.resolve': defineCommand({
    command: 'session.resolve',
    schemaVersion: 1,
    sentBy: 'daemon',
    payload: session.sessionResolvePayloadSchema,
    result: session.resumeDecisionSchema,
  }),
} as const;

export type SessionCommandCatalog = typeof SESSION_COMMAND_CATALOG;
export type SessionCommandName = keyof SessionCommandCatalog;
export type SessionResolveCommand = CommandEnvelope<'session.resolve', session.SessionResolvePayload, 1>;

export type CommandCatalog = typeof COMMAND_CATALOG;
export type CommandName = keyof CommandCatalog;
export const COMMAND_NAMES = Object.keys(COMMAND_CATALOG) as CommandName[];

/** Every command of both catalogs. */
export type AnyCommandName = CommandName | SessionCommandName;
type AnyCommandCatalog = CommandCatalog & SessionCommandCatalog;
/** Commands a daemon sends: on `cmd.<name>.<daemonId>`, answered for that daemon only. */
export type DaemonCommandName = { [TName in AnyCommandName]: AnyCommandCatalog[TName]['sentBy'] extends 'daemon' ? TName : never }[AnyCommandName];
/** Commands the services send (the gateway), on `cmd.<name>`. */
export type ServiceCommandName = Exclude<AnyCommandName, DaemonCommandName>;

/** Who sends the command named `name`. */
export function commandSenderOf(name: AnyCommandName): CommandSender {
  return Object.hasOwn(COMMAND_CATALOG, name) ? COMMAND_CATALOG[name as CommandName].sentBy : SESSION_COMMAND_CATALOG[name as SessionCommandName].sentBy;
}

export function isDaemonCommand(name: AnyCommandName): name is DaemonCommandName {
  return commandSenderOf(name) === 'daemon';
}

export type TaskEnqueueCommand = CommandEnvelope<'task.enqueue', task.TaskEnqueuePayload, 1>;
export type TaskClaimCommand = CommandEnvelope<'task.claim', task.TaskClaimPayload, 1>;
export type TaskStartCommand = CommandEnvelope<'task.start', task.TaskStartPayload, 1>;
export type TaskRenewCommand = CommandEnvelope<'task.renew', task.TaskRenewPayload, 1>;
export type TaskAwaitLocalDirectoryCommand = CommandEnvelope<'task.await_local_directory', task.TaskAwaitLocalDirectoryPayload, 1>;
export type TaskCompleteCommand = CommandEnvelope<'task.complete', task.TaskCompletePayload, 1>;
export type TaskFailCommand = CommandEnvelope<'task.fail', task.TaskFailPayload, 1>;
export type TaskCancelCommand = CommandEnvelope<'task.cancel', task.TaskCancelPayload, 1>;
export type TaskRequeueCommand = CommandEnvelope<'task.requeue', task.TaskRequeuePayload, 1>;
export type TaskCancelMatchingCommand = CommandEnvelope<'task.cancel_matching', task.TaskCancelMatchingPayload, 1>;
export type TaskReleaseOrphansCommand = CommandEnvelope<'task.release_orphans', task.TaskReleaseOrphansPayload, 1>;
export type TaskTokenIntrospectCommand = CommandEnvelope<'task.token_introspect', task.TaskTokenIntrospectPayload, 1>;

export type SwitchyardCommand =
  | TaskEnqueueCommand
  | TaskClaimCommand
  | TaskStartCommand
  | TaskRenewCommand
  | TaskAwaitLocalDirectoryCommand
  | TaskCompleteCommand
  | TaskFailCommand
  | TaskCancelCommand
  | TaskRequeueCommand
  | TaskCancelMatchingCommand
  | TaskReleaseOrphansCommand
  | TaskTokenIntrospectCommand;

/** Result type per command, written out so the type tests can hold the schemas to it. */
export interface CommandResults {
  'task.enqueue': task.TaskStateResult;
  'task.claim': task.TaskClaimResult;
  'task.start': task.TaskLeaseResult;
  'task.renew': task.TaskLeaseResult;
  'task.await_local_directory': task.TaskLeaseResult;
  'task.complete': task.TaskStateResult;
  'task.fail': task.TaskFailResult;
  'task.cancel': task.TaskStateResult;
  'task.requeue': task.TaskStateResult;
  'task.cancel_matching': task.TaskCancelMatchingResult;
  'task.release_orphans': task.TaskReleaseOrphansResult;
  'task.token_introspect': task.TaskTokenIntrospectResult;
}

export type CommandOf<TCommand extends CommandName> = Extract<SwitchyardCommand, { command: TCommand }>;
export type CommandPayloadOf<TCommand extends CommandName> = CommandOf<TCommand>['payload'];
export type CommandResultOf<TCommand extends CommandName> = CommandResults[TCommand];

export const commandSchema = z.discriminatedUnion('command', [
  COMMAND_CATALOG['task.enqueue'].request,
  COMMAND_CATALOG['task.claim'].request,
  COMMAND_CATALOG['task.start'].request,
  COMMAND_CATALOG['task.renew'].request,
  COMMAND_CATALOG['task.await_local_directory'].request,
  COMMAND_CATALOG['task.complete'].request,
  COMMAND_CATALOG['task.fail'].request,
  COMMAND_CATALOG['task.cancel'].request,
  COMMAND_CATALOG['task.requeue'].request,
  COMMAND_CATALOG['task.cancel_matching'].request,
  COMMAND_CATALOG['task.release_orphans'].request,
  COMMAND_CATALOG['task.token_introspect'].request,
]);

export function isCommandName(value: unknown): value is CommandName {
  return typeof value === 'string' && Object.hasOwn(COMMAND_CATALOG, value);
}

export type ParseCommandResult = { ok: true; command: SwitchyardCommand } | { ok: false; error: ContractViolation };

/** Validates a request body; a violation maps to an `invalid_request` reply. */
export function parseCommand(input: unknown): ParseCommandResult {
  const base = commandBaseSchema.safeParse(input);
  if (!base.success) {
    return { ok: false, error: new ContractViolation('invalid_envelope', 'Not a valid command request', base.error.issues) };
  }
  const { command, schemaVersion } = base.data;
  if (!isCommandName(command)) {
    return { ok: false, error: new ContractViolation('unknown_command', `Unknown command ${command}`, [], command) };
  }
  const expectedVersion = COMMAND_CATALOG[command].schemaVersion;
  if (schemaVersion !== expectedVersion) {
    const message = `${command} schema version ${schemaVersion} is not supported (expected ${expectedVersion})`;
    return { ok: false, error: new ContractViolation('unsupported_schema_version', message, [], command) };
  }
  const parsed = commandSchema.safeParse(input);
  if (!parsed.success) {
    const error = new ContractViolation('invalid_payload', `Invalid ${command} request`, parsed.error.issues, command);
    return { ok: false, error };
  }
  return { ok: true, command: parsed.data };
}

export interface CreateCommandInput<TCommand extends CommandName> {
  command: TCommand;
  payload: CommandPayloadOf<TCommand>;
  /** Reuse the same id when retrying; a fresh UUIDv7 otherwise. */
  requestId?: string;
  correlationId?: string;
}

/** Builds a validated request; throws ContractViolation on a bad payload (a caller bug). */
export function createCommand<TCommand extends CommandName>(input: CreateCommandInput<TCommand>): CommandOf<TCommand> {
  const definition = COMMAND_CATALOG[input.command];
  const requestId = input.requestId ?? uuidv7();
  const candidate = {
    requestId,
    command: input.command,
    schemaVersion: definition.schemaVersion,
    correlationId: input.correlationId ?? requestId,
    payload: input.payload,
  };
  const result = definition.request.safeParse(candidate);
  if (!result.success) {
    const message = `Invalid ${input.command} request: ${result.error.message}`;
    throw new ContractViolation('invalid_payload', message, result.error.issues, input.command);
  }
  return result.data as CommandOf<TCommand>;
}
