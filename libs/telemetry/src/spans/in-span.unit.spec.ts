import { context, propagation, ROOT_CONTEXT, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { inSpan, isTraced, linkTo, setActiveSpanTask } from './in-span';
import { SPAN_ATTRIBUTES } from './span-attributes';

describe('inSpan', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = trace.getTracer('in-span-test');

  beforeAll(() => {
    provider.register();
  });

  afterEach(() => {
    exporter.reset();
  });

  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it('runs the work with the span active, under the given parent, and ends it', async () => {
    const parent = { traceId: '8bf92f3577b34da6a3ce929d0e0e4736', spanId: '40f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED, isRemote: true };

    const result = await inSpan({ tracer, name: 'work', parent: trace.setSpanContext(ROOT_CONTEXT, parent), attributes: { a: 1 } }, async (span) => {
      setActiveSpanTask('task-7');
      return Promise.resolve(trace.getActiveSpan() === span);
    });

    expect(result).toBe(true);
    const [span] = exporter.getFinishedSpans();
    expect(span).toMatchObject({ name: 'work', attributes: { a: 1, [SPAN_ATTRIBUTES.taskId]: 'task-7' } });
    expect(span?.spanContext().traceId).toBe(parent.traceId);
    expect(span?.parentSpanContext?.spanId).toBe(parent.spanId);
  });

  it('marks the span failed by the error’s code or class, never its message, and passes the error on', async () => {
    const secret = 'https://user:ghp_secret@example.com/repo.git';
    const coded = Object.assign(new Error(`clone of ${secret} failed`), { code: 'repo_auth_failed' });

    await expect(inSpan({ tracer, name: 'coded' }, () => Promise.reject(coded))).rejects.toBe(coded);
    await expect(inSpan({ tracer, name: 'plain' }, () => Promise.reject(new TypeError(secret)))).rejects.toThrow(TypeError);

    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => [span.name, span.status, span.attributes[SPAN_ATTRIBUTES.errorType]])).toEqual([
      ['coded', { code: SpanStatusCode.ERROR, message: 'repo_auth_failed' }, 'repo_auth_failed'],
      ['plain', { code: SpanStatusCode.ERROR, message: 'TypeError' }, 'TypeError'],
    ]);
    expect(JSON.stringify(spans.map((span) => ({ attributes: span.attributes, events: span.events, status: span.status })))).not.toContain('ghp_secret');
  });

  it('tells a traced context from an empty one, and links only to a real span', () => {
    const traced = trace.setSpanContext(ROOT_CONTEXT, { traceId: '9bf92f3577b34da6a3ce929d0e0e4736', spanId: '50f067aa0ba902b7', traceFlags: TraceFlags.NONE });

    expect(isTraced(traced)).toBe(true);
    expect(isTraced(ROOT_CONTEXT)).toBe(false);
    expect(linkTo(traced)).toEqual([{ context: expect.objectContaining({ spanId: '50f067aa0ba902b7' }) }]);
    expect(linkTo(ROOT_CONTEXT)).toEqual([]);
  });
});
