import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One span as an OTLP/JSON export carried it, flattened with its resource's service name. */
export interface ReceivedSpan {
  readonly serviceName: string;
  readonly traceId: string;
  readonly spanId: string;
  /** Undefined for a root span. */
  readonly parentSpanId: string | undefined;
  readonly name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly links: ReadonlyArray<{ readonly traceId: string; readonly spanId: string }>;
}

export interface OtlpTraceReceiver {
  /** The base endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`): `http://127.0.0.1:<port>`; exports arrive at `/v1/traces`. */
  readonly url: string;
  /** Every span received so far (`http/json` exports; protobuf bodies are only counted). */
  spans(): ReceivedSpan[];
  /** Every export request: its content type and size. */
  exports(): ReadonlyArray<{ readonly contentType: string; readonly bytes: number }>;
  stop(): Promise<void>;
}

interface OtlpAnyValue {
  readonly stringValue?: string;
  readonly boolValue?: boolean;
  readonly intValue?: number | string;
  readonly doubleValue?: number;
  readonly arrayValue?: { readonly values?: readonly OtlpAnyValue[] };
}
interface OtlpKeyValue {
  readonly key: string;
  readonly value: OtlpAnyValue;
}
interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes?: readonly OtlpKeyValue[];
  readonly links?: ReadonlyArray<{ readonly traceId: string; readonly spanId: string }>;
}
interface OtlpExport {
  readonly resourceSpans?: ReadonlyArray<{
    readonly resource?: { readonly attributes?: readonly OtlpKeyValue[] };
    readonly scopeSpans?: ReadonlyArray<{ readonly spans?: readonly OtlpSpan[] }>;
  }>;
}

/**
 * A tiny OTLP/HTTP trace collector on 127.0.0.1 for tests: it accepts `POST /v1/traces`, keeps
 * the spans of JSON exports (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) and answers as a collector
 * does, so exporters go on sending.
 */
export async function startOtlpTraceReceiver(): Promise<OtlpTraceReceiver> {
  const spans: ReceivedSpan[] = [];
  const exports: Array<{ contentType: string; bytes: number }> = [];
  const server = createServer((request, response) => {
    receive({ request, response, into: { spans, exports } }).catch(() => {
      response.statusCode = 400;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => [...spans],
    exports: () => [...exports],
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function receive(options: {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly into: { readonly spans: ReceivedSpan[]; readonly exports: Array<{ contentType: string; bytes: number }> };
}): Promise<void> {
  const { request, response, into } = options;
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (request.method !== 'POST' || request.url !== '/v1/traces') {
    response.statusCode = 404;
    response.end();
    return;
  }
  const raw = Buffer.concat(chunks);
  const body = request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
  const contentType = request.headers['content-type'] ?? '';
  into.exports.push({ contentType, bytes: body.length });
  if (contentType.startsWith('application/json')) into.spans.push(...flatten(JSON.parse(body.toString('utf8')) as OtlpExport));
  response.statusCode = 200;
  response.setHeader('content-type', contentType.startsWith('application/json') ? 'application/json' : 'application/x-protobuf');
  response.end(contentType.startsWith('application/json') ? '{}' : undefined);
}

function flatten(exported: OtlpExport): ReceivedSpan[] {
  return (exported.resourceSpans ?? []).flatMap((resourceSpans) => {
    const serviceName = attributesOf(resourceSpans.resource?.attributes)['service.name'];
    return (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span) => ({
        serviceName: typeof serviceName === 'string' ? serviceName : '',
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ? span.parentSpanId : undefined,
        name: span.name,
        kind: span.kind,
        attributes: attributesOf(span.attributes),
        links: (span.links ?? []).map((link) => ({ traceId: link.traceId, spanId: link.spanId })),
      })),
    );
  });
}

function attributesOf(attributes: readonly OtlpKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((attributes ?? []).map((attribute) => [attribute.key, valueOf(attribute.value)]));
}

function valueOf(value: OtlpAnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}
