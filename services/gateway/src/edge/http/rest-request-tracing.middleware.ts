import type { IncomingHttpHeaders } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SPAN_ATTRIBUTES } from '@switchyard/telemetry';

const tracer = trace.getTracer('@switchyard/gateway');

/** The REST API; the web app's files and the health probes are not traced. */
const API_PATH = /^\/api(\/|$)/;

/** What the middleware reads of Express's request and response. */
interface TracedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** Set by Express once a route matched. */
  readonly route?: { readonly path?: unknown };
  readonly params?: Readonly<Record<string, unknown>>;
}
interface TracedResponse {
  readonly statusCode: number;
  once(event: 'finish' | 'close', listener: () => void): unknown;
}

/**
 * One SERVER span per REST request (`POST /api/tasks`), the parent of whatever the request does on
 * the bus, continuing the caller's `traceparent` when it sends one. Registered first, so it covers
 * the body parsers, guards and the handler; the request and response emitters are bound to the
 * span's context, so work resumed from their events (the body parser's) stays in it. The span
 * names the matched route's template, never the path (`/api/invitations/:token/accept` holds a
 * token), and no header, query or body. Without a registered SDK it records nothing.
 */
export function traceRestRequests(app: NestExpressApplication): void {
  app.use((request: TracedRequest, response: TracedResponse, next: () => void) => {
    if (!API_PATH.test(request.path)) {
      next();
      return;
    }
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan(request.method, { kind: SpanKind.SERVER, attributes: { [SPAN_ATTRIBUTES.httpMethod]: request.method } }, parent);
    const active = trace.setSpan(parent, span);
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      endRequestSpan({ span, request, response });
    };
    response.once('finish', end);
    response.once('close', end);
    context.bind(active, request);
    context.bind(active, response);
    context.with(active, next);
  });
}

function endRequestSpan({ span, request, response }: { readonly span: Span; readonly request: TracedRequest; readonly response: TracedResponse }): void {
  const route = typeof request.route?.path === 'string' ? request.route.path : undefined;
  if (route !== undefined) {
    span.updateName(`${request.method} ${route}`);
    span.setAttribute(SPAN_ATTRIBUTES.httpRoute, route);
  }
  const taskId = taskIdOf(request, route);
  if (taskId !== undefined) span.setAttribute(SPAN_ATTRIBUTES.taskId, taskId);
  span.setAttribute(SPAN_ATTRIBUTES.httpStatusCode, response.statusCode);
  // As HTTP's conventions say for a server: a 4xx is the caller's, only a 5xx fails the span.
  if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** The task a route names (`/api/tasks/:id/...`, `:taskId`); a created task is named by the handler (`setActiveSpanTask`). */
function taskIdOf(request: TracedRequest, route: string | undefined): string | undefined {
  const named = request.params?.['taskId'] ?? (route?.startsWith('/api/tasks/:id') ? request.params?.['id'] : undefined);
  return typeof named === 'string' ? named : undefined;
}
