import { ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api';
import { headers as createHeaders } from '../nats-core/nats-core.bridge';
import {
  extractTraceContext,
  headersFromRecord,
  headersToRecord,
  injectTraceContext,
  natsHeaderGetter,
  sanitizeHeaderValue,
} from './trace-context.propagation';

const spanContext = {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  traceFlags: TraceFlags.SAMPLED,
};

describe('trace context in NATS headers', () => {
  it('writes W3C traceparent and reads it back', () => {
    const headers = injectTraceContext(createHeaders(), trace.setSpanContext(ROOT_CONTEXT, spanContext));

    expect(headers.get('traceparent')).toBe('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
    expect(trace.getSpanContext(extractTraceContext(headers))).toMatchObject({ ...spanContext, isRemote: true });
  });

  it('writes nothing without a span', () => {
    const headers = injectTraceContext(createHeaders(), ROOT_CONTEXT);

    expect(headers.keys()).toEqual([]);
  });

  it('extracts nothing from absent or empty headers', () => {
    expect(trace.getSpanContext(extractTraceContext(undefined))).toBeUndefined();
    expect(trace.getSpanContext(extractTraceContext(createHeaders()))).toBeUndefined();
  });

  it('reads absent keys as undefined and lists present ones', () => {
    const headers = headersFromRecord({ tracestate: 'vendor=1' });

    expect(natsHeaderGetter.get(headers, 'traceparent')).toBeUndefined();
    expect(natsHeaderGetter.get(headers, 'tracestate')).toBe('vendor=1');
    expect(natsHeaderGetter.keys(headers)).toEqual(['tracestate']);
  });
});

describe('header records', () => {
  it('round-trips a record through NATS headers', () => {
    expect(headersToRecord(headersFromRecord({ a: '1', 'Switchyard-Event-Type': 'task.enqueued' }))).toEqual({
      a: '1',
      'Switchyard-Event-Type': 'task.enqueued',
    });
  });

  it('keeps header values on one line and bounded', () => {
    expect(sanitizeHeaderValue('line one\r\nline two')).toBe('line one line two');
    expect(sanitizeHeaderValue('x'.repeat(50), 10)).toHaveLength(10);
  });
});
