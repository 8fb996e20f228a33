import { context as otelContext, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import type { TraceContextFields } from '@switchyard/contracts';
import { extractTraceContext, headersFromRecord, traceContextFieldsOf } from '@switchyard/messaging';
import { inSpan, isTraced, linkTo, SPAN_ATTRIBUTES } from '@switchyard/telemetry';

const tracer = trace.getTracer('@switchyard/queue');

/**
 * The claim of one task, as a span of the trace the task was enqueued in (the context stored with
 * its first event), linked to the claim request that took it, which belongs to the daemon's own
 * trace. The events the claim appends carry this span's context, and so does what `work` gets for
 * the claimed task's `traceContext`: the daemon's run continues the task's trace from here. A task
 * enqueued outside any trace is claimed within the request's.
 */
export function inTaskClaimSpan<T>(
  options: { readonly taskId: string; readonly originHeaders: Readonly<Record<string, string>> | undefined },
  work: (traceContext: () => TraceContextFields | undefined) => Promise<T>,
): Promise<T> {
  const request = otelContext.active();
  const origin = extractTraceContext(headersFromRecord(options.originHeaders ?? {}));
  const parent = isTraced(origin) ? origin : request;
  return inSpan(
    { tracer, name: 'claim task', kind: SpanKind.INTERNAL, parent, links: parent === origin ? linkTo(request) : [], attributes: { [SPAN_ATTRIBUTES.taskId]: options.taskId } },
    // From the span itself: without an SDK (no context manager) the active context stays empty.
    (span) => work(() => traceContextFieldsOf(trace.setSpan(ROOT_CONTEXT, span))),
  );
}
