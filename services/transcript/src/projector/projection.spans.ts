import { SpanKind, trace, type Link, type Span } from '@opentelemetry/api';
import { messagingAttributes, type PulledMessage } from '@switchyard/messaging';
import { isTraced, markSpanFailed, SPAN_ATTRIBUTES } from '@switchyard/telemetry';

const tracer = trace.getTracer('@switchyard/transcript');

/** Links kept per span to a task's other messages of the batch; the first one is the parent. */
const MAX_LINKS = 32;

export interface ProjectionSpans {
  /** Ends every span; with an error, marked failed. */
  end(error?: unknown): void;
}

/**
 * The projection of a batch as one CONSUMER span per task in it (`project task.message`): a batch
 * is one transaction over many tasks, but each task's trace should reach its timeline. Each span is
 * a child of the task's first traced message of the batch (its publish by the daemon's run) and
 * links to the task's other messages; messages published outside any trace get none.
 */
export function startProjectionSpans(options: { readonly consumer: string; readonly messages: ReadonlyArray<{ readonly message: PulledMessage; readonly taskId: string }> }): ProjectionSpans {
  const byTask = new Map<string, PulledMessage[]>();
  for (const { message, taskId } of options.messages) {
    if (!isTraced(message.traceContext)) continue;
    const messages = byTask.get(taskId);
    if (messages) messages.push(message);
    else byTask.set(taskId, [message]);
  }
  const spans: Span[] = [];
  for (const [taskId, [first, ...rest]] of byTask) {
    const links = rest.slice(0, MAX_LINKS).flatMap((message): Link[] => {
      const spanContext = trace.getSpanContext(message.traceContext);
      return spanContext ? [{ context: spanContext }] : [];
    });
    const attributes = {
      ...messagingAttributes(first!.subject, { type: 'process', name: 'project' }),
      [SPAN_ATTRIBUTES.consumerGroup]: options.consumer,
      [SPAN_ATTRIBUTES.batchMessageCount]: rest.length + 1,
      [SPAN_ATTRIBUTES.taskId]: taskId,
    };
    spans.push(tracer.startSpan('project task.message', { kind: SpanKind.CONSUMER, attributes, links }, first!.traceContext));
  }
  return {
    end(error?: unknown) {
      for (const span of spans) {
        if (error !== undefined) markSpanFailed(span, error);
        span.end();
      }
    },
  };
}
