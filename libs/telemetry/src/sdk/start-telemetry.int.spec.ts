import { trace } from '@opentelemetry/api';
import { startOtlpTraceReceiver, type OtlpTraceReceiver } from '@switchyard/testing';
import { startTelemetry, shutdownTelemetry, type TelemetryLogger } from './start-telemetry';
import { readTelemetrySettings } from './telemetry.settings';

/** A logger that keeps its lines. */
function recordingLogger(): TelemetryLogger & { readonly lines: Array<{ readonly details: object; readonly message: string }> } {
  const lines: Array<{ details: object; message: string }> = [];
  const write = (details: object, message: string): void => {
    lines.push({ details, message });
  };
  return { lines, info: write, warn: write, error: write };
}

/**
 * The trace SDK's bootstrap against a local OTLP receiver: off without an endpoint (spans record
 * nothing), on with one, exporting the process's spans in the configured encoding under its
 * service name, and flushing what is buffered when it shuts down.
 */
describe('startTelemetry', () => {
  let receiver: OtlpTraceReceiver;
  const savedServiceName = process.env['OTEL_SERVICE_NAME'];

  beforeAll(async () => {
    receiver = await startOtlpTraceReceiver();
  });

  afterEach(async () => {
    await shutdownTelemetry();
    if (savedServiceName === undefined) delete process.env['OTEL_SERVICE_NAME'];
    else process.env['OTEL_SERVICE_NAME'] = savedServiceName;
  });

  afterAll(async () => {
    await receiver.stop();
  });

  it('starts nothing without an endpoint: spans record nothing', async () => {
    const telemetry = await startTelemetry({ settings: readTelemetrySettings({}, 'daemon').settings, logger: recordingLogger() });

    expect(telemetry.enabled).toBe(false);
    const span = trace.getTracer('test').startSpan('ignored');
    expect(span.isRecording()).toBe(false);
    span.end();
  });

  it('exports over http/json under the process’s name, flushing buffered spans at shutdown, and logs the endpoint without credentials', async () => {
    const logger = recordingLogger();
    const endpoint = receiver.url.replace('http://', 'http://user:hunter2@');
    const { settings } = readTelemetrySettings({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, 'transcript');
    const telemetry = await startTelemetry({ settings, logger });
    expect(telemetry.enabled).toBe(true);

    const span = trace.getTracer('test').startSpan('buffered until shutdown');
    span.setAttribute('switchyard.task.id', 'task-1');
    span.end();
    await telemetry.shutdown();

    expect(receiver.spans()).toContainEqual(expect.objectContaining({ serviceName: 'transcript', name: 'buffered until shutdown', attributes: expect.objectContaining({ 'switchyard.task.id': 'task-1' }) }));
    expect(logger.lines).toContainEqual(expect.objectContaining({ details: expect.objectContaining({ event: 'telemetry_started', serviceName: 'transcript', protocol: 'http/json' }) }));
    expect(JSON.stringify(logger.lines)).not.toContain('hunter2');
    // Unregistered: a span after the shutdown records nothing.
    expect(trace.getTracer('test').startSpan('after').isRecording()).toBe(false);
  });

  it('lets OTEL_SERVICE_NAME name the process, and sends http/protobuf by default', async () => {
    process.env['OTEL_SERVICE_NAME'] = 'queue-eu-1';
    const logger = recordingLogger();
    const before = receiver.exports().length;
    const telemetry = await startTelemetry({ settings: readTelemetrySettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces` }, 'queue').settings, logger });

    trace.getTracer('test').startSpan('protobuf').end();
    await telemetry.shutdown();

    expect(receiver.exports().slice(before)).toContainEqual(expect.objectContaining({ contentType: 'application/x-protobuf' }));
    expect(logger.lines).toContainEqual(expect.objectContaining({ details: expect.objectContaining({ serviceName: 'queue-eu-1', protocol: 'http/protobuf' }) }));
  });
});
