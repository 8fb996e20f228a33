/**
 * Attribute names of Switchyard's spans: OpenTelemetry's semantic conventions where one fits,
 * `switchyard.*` for our own. Values are ids, names and counts only: never a payload, a header, a
 * token or an error message (which may quote input).
 */
export const SPAN_ATTRIBUTES = {
  taskId: 'switchyard.task.id',
  attempt: 'switchyard.task.attempt',
  /** A command of the contracts (`task.claim`). */
  command: 'switchyard.command',
  daemonId: 'switchyard.daemon.id',
  runtimeId: 'switchyard.runtime.id',
  /** Tasks a claim handed out. */
  claimedTasks: 'switchyard.claim.task_count',
  messagingSystem: 'messaging.system',
  /** The logical subject (without the deployment's namespace). */
  destinationName: 'messaging.destination.name',
  /** The subject's kind, ids left out (`task.message`, `cmd.task.claim`). */
  destinationTemplate: 'messaging.destination.template',
  operationType: 'messaging.operation.type',
  operationName: 'messaging.operation.name',
  consumerGroup: 'messaging.consumer.group.name',
  batchMessageCount: 'messaging.batch.message_count',
  /** The error's code or class name (its message is left out). */
  errorType: 'error.type',
  httpMethod: 'http.request.method',
  /** The matched route's template (`/api/tasks/:id`), never the path itself, which may hold a token. */
  httpRoute: 'http.route',
  httpStatusCode: 'http.response.status_code',
} as const;
