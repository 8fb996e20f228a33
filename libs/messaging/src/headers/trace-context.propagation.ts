import { context as otelContext, ROOT_CONTEXT, type Context, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { HEADERS, type TraceContextFields } from '@switchyard/contracts';
import { headers as createHeaders, type MsgHdrs } from '../nats-core/nats-core.bridge';

/** Writes propagation fields into NATS message headers. */
export const natsHeaderSetter: TextMapSetter<MsgHdrs> = {
  set(carrier, key, value) {
    carrier.set(key, value);
  },
};

/** Reads propagation fields from NATS message headers (absent headers read as `undefined`). */
export const natsHeaderGetter: TextMapGetter<MsgHdrs | undefined> = {
  keys(carrier) {
    return carrier ? carrier.keys() : [];
  },
  get(carrier, key) {
    if (!carrier || !carrier.has(key)) return undefined;
    const values = carrier.values(key);
    return values.length > 1 ? values : values[0];
  },
};

// traceparent/tracestate are part of our wire contract, so they are always written with the W3C
// propagator, whatever global propagator (if any) the process registered.
const traceContextPropagator = new W3CTraceContextPropagator();

/** Injects `traceparent`/`tracestate` of `context` (default: the active context) into `headers`. */
export function injectTraceContext(headers: MsgHdrs, context: Context = otelContext.active()): MsgHdrs {
  traceContextPropagator.inject(context, headers, natsHeaderSetter);
  return headers;
}

/** The remote trace context carried by `headers`, on top of `base` (default: the root context). */
export function extractTraceContext(headers: MsgHdrs | undefined, base: Context = ROOT_CONTEXT): Context {
  return traceContextPropagator.extract(base, headers, natsHeaderGetter);
}

/** The trace context of `context` as payload fields (a claimed task's), or undefined when it carries none. */
export function traceContextFieldsOf(context: Context): TraceContextFields | undefined {
  const record: Record<string, string> = {};
  const setter: TextMapSetter<Record<string, string>> = {
    set(carrier, key, value) {
      carrier[key] = value;
    },
  };
  traceContextPropagator.inject(context, record, setter);
  const traceparent = record[HEADERS.traceparent];
  if (traceparent === undefined) return undefined;
  const tracestate = record[HEADERS.tracestate];
  return tracestate === undefined ? { traceparent } : { traceparent, tracestate };
}

/** The remote trace context payload fields carry (none: the root context). */
export function contextOfTraceFields(fields: TraceContextFields | undefined): Context {
  return fields ? extractTraceContext(headersFromRecord({ ...fields })) : ROOT_CONTEXT;
}

/** Builds NATS headers from a plain record. */
export function headersFromRecord(values: Readonly<Record<string, string>> | undefined): MsgHdrs {
  const headers = createHeaders();
  for (const [name, value] of Object.entries(values ?? {})) {
    headers.set(name, sanitizeHeaderValue(value));
  }
  return headers;
}

/** NATS headers as a plain record (the last value wins for repeated names). */
export function headersToRecord(headers: MsgHdrs | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  if (!headers) return record;
  for (const name of headers.keys()) {
    record[name] = headers.last(name);
  }
  return record;
}

/** Header values cannot hold line breaks; long values are cut to keep messages small. */
export function sanitizeHeaderValue(value: string, maximumLength = 1024): string {
  const singleLine = value.replace(/[\r\n]+/g, ' ');
  return singleLine.length > maximumLength ? `${singleLine.slice(0, maximumLength - 1)}…` : singleLine;
}
