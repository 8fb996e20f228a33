import { context, isSpanContextValid, SpanStatusCode, trace, type Attributes, type Context, type Link, type Span, type SpanKind, type Tracer } from '@opentelemetry/api';
import { SPAN_ATTRIBUTES } from './span-attributes';

export interface InSpanOptions {
  /** The instrumentation scope's tracer (`trace.getTracer('@switchyard/<project>')`). */
  readonly tracer: Tracer;
  readonly name: string;
  readonly kind?: SpanKind;
  /** Default: the active context. */
  readonly parent?: Context;
  readonly links?: readonly Link[];
  readonly attributes?: Attributes;
}

/**
 * Runs `work` with a new span active (a child of `parent`) and ends it when `work` settles; a
 * throw marks the span failed and passes through. Without a registered SDK the span records
 * nothing and only carries the parent's context along.
 */
export async function inSpan<T>(options: InSpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  const parent = options.parent ?? context.active();
  const span = options.tracer.startSpan(
    options.name,
    { ...(options.kind === undefined ? {} : { kind: options.kind }), ...(options.attributes ? { attributes: options.attributes } : {}), ...(options.links ? { links: [...options.links] } : {}) },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (error) {
    markSpanFailed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/**
 * Marks a span failed by the error's code or class name. The message stays out: errors quote
 * what they failed on (a URL, a line of input), and a span must never carry a secret.
 */
export function markSpanFailed(span: Span, error: unknown): void {
  const type = errorTypeOf(error);
  span.setAttribute(SPAN_ATTRIBUTES.errorType, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

function errorTypeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' && /^[\w.-]{1,64}$/.test(error.code)) return error.code;
  if (error instanceof Error) return error.name;
  return typeof error;
}

/** Whether `candidate` carries a span (local or remote) that a new span can be a child of. */
export function isTraced(candidate: Context): boolean {
  const spanContext = trace.getSpanContext(candidate);
  return spanContext !== undefined && isSpanContextValid(spanContext);
}

/** A link to the span `candidate` carries, when it carries one (e.g. the request that caused work in another trace). */
export function linkTo(candidate: Context, attributes?: Attributes): Link[] {
  const spanContext = trace.getSpanContext(candidate);
  if (spanContext === undefined || !isSpanContextValid(spanContext)) return [];
  return [{ context: spanContext, ...(attributes ? { attributes } : {}) }];
}

/** Names the task on the active span: a REST request that created it, a command that reached it. */
export function setActiveSpanTask(taskId: string): void {
  trace.getActiveSpan()?.setAttribute(SPAN_ATTRIBUTES.taskId, taskId);
}
