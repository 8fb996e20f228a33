import { z } from 'zod';

/**
 * A W3C trace context (https://www.w3.org/TR/trace-context/) carried in a payload rather than in
 * headers: where one reply hands out several pieces of work, each in a trace of its own (a claim's
 * tasks). Not a secret: it names a trace, it grants nothing.
 */
export interface TraceContextFields {
  traceparent: string;
  tracestate?: string;
}
export const traceContextFieldsSchema = z.object({
  traceparent: z.string().regex(/^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/, 'must be a W3C traceparent'),
  tracestate: z.string().max(512).optional(),
});
