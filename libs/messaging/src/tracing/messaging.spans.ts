import { context as otelContext, SpanKind, trace, type Attributes, type Context } from '@opentelemetry/api';
import { COMMAND_SUBJECT_PREFIX, DEAD_LETTER_SUBJECT_PREFIX, NOTIFY_SUBJECT_PREFIX } from '@switchyard/contracts';
import { inSpan, isTraced, SPAN_ATTRIBUTES } from '@switchyard/telemetry';

const tracer = trace.getTracer('@switchyard/messaging');

/**
 * A subject's kind, its ids left out, for span names: `task.message` (event subjects are
 * `<type>.<aggregateId>.<publisher>`, types two tokens), `cmd.task.claim`, `dlq.<stream>.<consumer>`,
 * `notify.work_available`.
 */
export function subjectTemplateOf(subject: string): string {
  const tokens = subject.split('.');
  if (tokens[0] === COMMAND_SUBJECT_PREFIX || tokens[0] === DEAD_LETTER_SUBJECT_PREFIX) return tokens.slice(0, 3).join('.');
  if (tokens[0] === NOTIFY_SUBJECT_PREFIX) return [tokens[0], ...tokens.slice(2, 3)].join('.');
  return tokens.slice(0, 2).join('.');
}

/** The command a `cmd.<name>[.<sender>]` subject (or filter) carries: `task.claim`. */
export function commandNameOf(subject: string): string | undefined {
  const tokens = subject.split('.');
  return tokens[0] === COMMAND_SUBJECT_PREFIX && tokens.length >= 3 ? tokens.slice(1, 3).join('.') : undefined;
}

/** The task an event subject `task.<type>.<taskId>.<publisher>` names. */
function taskIdOfSubject(subject: string): string | undefined {
  const tokens = subject.split('.');
  return tokens[0] === 'task' && tokens.length === 4 ? tokens[2] : undefined;
}

/** What every messaging span says: the system, the subject and its kind, the operation, the task. */
export function messagingAttributes(subject: string, operation: { readonly type: 'send' | 'process'; readonly name: string }): Attributes {
  const taskId = taskIdOfSubject(subject);
  const command = commandNameOf(subject);
  return {
    [SPAN_ATTRIBUTES.messagingSystem]: 'nats',
    [SPAN_ATTRIBUTES.destinationName]: subject,
    [SPAN_ATTRIBUTES.destinationTemplate]: subjectTemplateOf(subject),
    [SPAN_ATTRIBUTES.operationType]: operation.type,
    [SPAN_ATTRIBUTES.operationName]: operation.name,
    ...(command === undefined ? {} : { [SPAN_ATTRIBUTES.command]: command }),
    ...(taskId === undefined ? {} : { [SPAN_ATTRIBUTES.taskId]: taskId }),
  };
}

/** A span's name and attributes, built only when the span is started (not for untraced traffic). */
export type SpanDescription = () => { readonly name: string; readonly attributes: Attributes };

/**
 * A publish or a request: a PRODUCER / CLIENT span when `parent` is traced (work outside any trace,
 * such as heartbeats, starts none). `work` gets the context to put in the message's headers: the
 * span's, so receivers become its children, or `parent` itself when no span started.
 */
export function inOutgoingSpan<T>(
  options: { readonly parent: Context; readonly kind: SpanKind.PRODUCER | SpanKind.CLIENT; readonly describe: SpanDescription },
  work: (carried: Context) => Promise<T>,
): Promise<T> {
  if (!isTraced(options.parent)) return work(options.parent);
  const { name, attributes } = options.describe();
  // From the span itself, not the active context: without a context manager (no SDK) that stays empty.
  return inSpan({ tracer, name, kind: options.kind, parent: options.parent, attributes }, (span) => work(trace.setSpan(options.parent, span)));
}

/**
 * A consumed message or a served request: `work` runs in a CONSUMER / SERVER span, a child of the
 * sender's context, when the message carries one; in the sender's (empty) context otherwise.
 */
export function inIncomingSpan<T>(
  options: { readonly parent: Context; readonly kind: SpanKind.CONSUMER | SpanKind.SERVER; readonly describe: SpanDescription },
  work: () => Promise<T>,
): Promise<T> {
  if (!isTraced(options.parent)) return otelContext.with(options.parent, work);
  const { name, attributes } = options.describe();
  return inSpan({ tracer, name, kind: options.kind, parent: options.parent, attributes }, () => work());
}

/** The task a command's payload (or reply) names in its `taskId`, as a span attribute. */
export function taskAttributesOf(value: unknown): Attributes {
  const taskId = typeof value === 'object' && value !== null && 'taskId' in value ? value.taskId : undefined;
  return typeof taskId === 'string' ? { [SPAN_ATTRIBUTES.taskId]: taskId } : {};
}
