import { ROOT_CONTEXT, SpanKind, trace, type Context } from '@opentelemetry/api';
import type { ClaimedTask } from '@switchyard/contracts';
import { contextOfTraceFields } from '@switchyard/messaging';
import { inSpan, isTraced, linkTo, markSpanFailed, SPAN_ATTRIBUTES } from '@switchyard/telemetry';

const tracer = trace.getTracer('@switchyard/daemon');

/**
 * One claim of this daemon (a nudge, the safety poll or a freed slot asks for it): the root of a
 * trace of its own, with the request to the queue and the queue's handling as children. `work`
 * gets the claim's context, which the runs it starts link to.
 */
export function inClaimSpan<T>(daemonId: string, work: (claim: Context) => Promise<T>): Promise<T> {
  return inSpan({ tracer, name: 'claim tasks', kind: SpanKind.INTERNAL, parent: ROOT_CONTEXT, attributes: { [SPAN_ATTRIBUTES.daemonId]: daemonId } }, (span) =>
    work(trace.setSpan(ROOT_CONTEXT, span)),
  );
}

/**
 * A task's run, from its claim to its final report (renewals, the session lookup, the start, every
 * timeline message and the report are its children): a span of the task's own trace, which the
 * queue's claim put in the claimed task, linked to the claim that fetched it. A task that came
 * without a trace runs in the claim's.
 */
export function inRunSpan<T>(options: { readonly task: ClaimedTask; readonly daemonId: string; readonly claim: Context }, work: () => Promise<T>): Promise<T> {
  const { task } = options;
  const taskTrace = contextOfTraceFields(task.traceContext);
  const parent = isTraced(taskTrace) ? taskTrace : options.claim;
  return inSpan(
    {
      tracer,
      name: 'run task',
      kind: SpanKind.INTERNAL,
      parent,
      links: parent === taskTrace ? linkTo(options.claim) : [],
      attributes: {
        [SPAN_ATTRIBUTES.taskId]: task.taskId,
        [SPAN_ATTRIBUTES.attempt]: task.attempt,
        [SPAN_ATTRIBUTES.runtimeId]: task.runtimeId,
        [SPAN_ATTRIBUTES.daemonId]: options.daemonId,
      },
    },
    () => work(),
  );
}

/** Marks the active span (the run's) failed: for errors a run absorbs and reports rather than throws. */
export function markRunFailed(error: unknown): void {
  const span = trace.getActiveSpan();
  if (span) markSpanFailed(span, error);
}
