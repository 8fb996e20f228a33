import { context, diag, DiagLogLevel, propagation, trace, type DiagLogger } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-node';
import { describeEndpoint, type TelemetrySettings } from './telemetry.settings';

/** What the bootstrap writes to the process's JSON log (a pino logger fits). */
export interface TelemetryLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface RunningTelemetry {
  readonly enabled: boolean;
  /**
   * Exports the spans still buffered, then unregisters the SDK; waits at most the shutdown
   * timeout (an unreachable collector must not hold a stopping process). Idempotent.
   */
  shutdown(): Promise<void>;
}

export interface StartTelemetryOptions {
  readonly settings: TelemetrySettings;
  readonly logger: TelemetryLogger;
  /** Default 5 s. */
  readonly shutdownTimeoutMs?: number;
}

const DISABLED: RunningTelemetry = { enabled: false, shutdown: () => Promise.resolve() };

/** The SDK this process started, for `shutdownTelemetry`: the tracer provider is process-wide anyway. */
let running: RunningTelemetry | undefined;

/**
 * Starts the OpenTelemetry trace SDK for this process when the settings say so: a tracer provider
 * with the process's resource, a batch span processor (OTEL_BSP_* apply) and the OTLP/HTTP
 * exporter of the configured encoding, registered globally with the async-hooks context manager
 * and the W3C propagator. Disabled, nothing is loaded: the SDK packages are imported only here,
 * so a process without an endpoint (a laptop's daemon, the tests) pays nothing.
 */
export async function startTelemetry(options: StartTelemetryOptions): Promise<RunningTelemetry> {
  const { settings, logger } = options;
  if (!settings.enabled) return DISABLED;
  if (running) throw new Error('telemetry is already started in this process');
  const [{ NodeTracerProvider, BatchSpanProcessor }, resources] = await Promise.all([import('@opentelemetry/sdk-trace-node'), import('@opentelemetry/resources')]);
  // The process's name first, then OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME over it (later merges win).
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ 'service.name': settings.defaultServiceName }))
    .merge(resources.detectResources({ detectors: [resources.hostDetector, resources.envDetector] }));
  // The host's id is read from a file: settled before the first export, and before the name is logged.
  await resource.waitForAsyncAttributes?.();
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(await createExporter(settings))] });
  provider.register();
  diag.setLogger(diagnosticsTo(logger), DiagLogLevel.WARN);
  const serviceName = String(resource.attributes['service.name']);
  logger.info(
    { event: 'telemetry_started', serviceName, protocol: settings.protocol, endpoint: describeEndpoint(settings.tracesUrl) },
    `traces of ${serviceName} exported over OTLP (${settings.protocol}) to ${describeEndpoint(settings.tracesUrl)}`,
  );
  let stopping: Promise<void> | undefined;
  const shutdown = (): Promise<void> =>
    (stopping ??= (async () => {
      const timeoutMs = options.shutdownTimeoutMs ?? 5_000;
      const flushed = await withTimeout(provider.shutdown(), timeoutMs).catch((error: unknown) => {
        logger.warn({ event: 'telemetry_shutdown_failed', error: error instanceof Error ? error.name : String(error) }, 'the last spans could not be exported');
        return true;
      });
      if (!flushed) logger.warn({ event: 'telemetry_shutdown_timeout', timeoutMs }, `the last spans were not exported within ${timeoutMs} ms`);
      trace.disable();
      context.disable();
      propagation.disable();
      diag.disable();
      running = undefined;
    })());
  running = { enabled: true, shutdown };
  return running;
}

/** Shuts down the SDK `startTelemetry` started in this process, if any. */
export function shutdownTelemetry(): Promise<void> {
  return running?.shutdown() ?? Promise.resolve();
}

async function createExporter(settings: Extract<TelemetrySettings, { enabled: true }>): Promise<SpanExporter> {
  // Headers, timeout, compression and TLS files still come from OTEL_EXPORTER_OTLP_[TRACES_]* (read by the exporter).
  if (settings.protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter({ url: settings.tracesUrl });
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter({ url: settings.tracesUrl });
}

/** The SDK's own warnings (an export that failed, a dropped span) as log lines; its messages carry no attribute values. */
function diagnosticsTo(logger: TelemetryLogger): DiagLogger {
  const ignore = (): void => undefined;
  return {
    error: (message) => logger.error({ event: 'telemetry_diagnostic' }, message),
    warn: (message) => logger.warn({ event: 'telemetry_diagnostic' }, message),
    info: ignore,
    debug: ignore,
    verbose: ignore,
  };
}

/** True when `work` settled in time. */
async function withTimeout(work: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([work.then(() => true as const), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
