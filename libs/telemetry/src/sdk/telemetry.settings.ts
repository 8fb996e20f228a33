/** The OTLP encodings this build exports traces in (OTLP over HTTP). */
export const TRACES_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type TracesProtocol = (typeof TRACES_PROTOCOLS)[number];

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
const RATIO_SAMPLERS: readonly string[] = ['traceidratio', 'parentbased_traceidratio'];

export type TelemetrySettings =
  | { readonly enabled: false; readonly reason: string }
  | {
      readonly enabled: true;
      /** The process's own name (`gateway`, `daemon`, ...); OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over it. */
      readonly defaultServiceName: string;
      readonly protocol: TracesProtocol;
      /** Where spans are POSTed: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, else OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`. */
      readonly tracesUrl: string;
    };

/** One bad `OTEL_*` key: its name and what is wrong, never its value (an endpoint may hold credentials). */
export interface TelemetryProblem {
  readonly key: string;
  readonly problem: string;
}

/**
 * Reads the standard `OTEL_*` variables once at boot. Tracing is off unless an OTLP endpoint is
 * configured (and OTEL_SDK_DISABLED is not `true`, and OTEL_TRACES_EXPORTER is not `none`): then
 * no exporter exists and no span is recorded. The keys are checked only when tracing is on, all at
 * once; gRPC is not built in, so `grpc` is refused here rather than failing at the first export.
 */
export function readTelemetrySettings(env: NodeJS.ProcessEnv, defaultServiceName: string): { readonly settings: TelemetrySettings; readonly problems: readonly TelemetryProblem[] } {
  const value = (key: string): string | undefined => {
    const raw = env[key]?.trim();
    return raw === undefined || raw === '' ? undefined : raw;
  };
  if (value('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return { settings: { enabled: false, reason: 'OTEL_SDK_DISABLED is true' }, problems: [] };
  const exporters = (value('OTEL_TRACES_EXPORTER') ?? 'otlp').split(',').map((name) => name.trim().toLowerCase());
  if (exporters.includes('none')) return { settings: { enabled: false, reason: 'OTEL_TRACES_EXPORTER is none' }, problems: [] };
  const tracesEndpoint = value('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const baseEndpoint = value('OTEL_EXPORTER_OTLP_ENDPOINT');
  if (tracesEndpoint === undefined && baseEndpoint === undefined) return { settings: { enabled: false, reason: 'no OTLP endpoint is configured' }, problems: [] };

  const problems: TelemetryProblem[] = [];
  if (exporters.some((name) => name !== 'otlp')) problems.push({ key: 'OTEL_TRACES_EXPORTER', problem: 'must be otlp or none (other exporters are not built in)' });
  const endpointKey = tracesEndpoint === undefined ? 'OTEL_EXPORTER_OTLP_ENDPOINT' : 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT';
  const tracesUrl = tracesEndpoint ?? appendTracesPath(baseEndpoint!);
  if (!isHttpUrl(tracesUrl)) problems.push({ key: endpointKey, problem: 'must be an http:// or https:// URL' });
  const protocolKey = value('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') === undefined ? 'OTEL_EXPORTER_OTLP_PROTOCOL' : 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL';
  const protocol = value(protocolKey) ?? 'http/protobuf';
  if (!(TRACES_PROTOCOLS as readonly string[]).includes(protocol)) problems.push({ key: protocolKey, problem: `must be one of: ${TRACES_PROTOCOLS.join(', ')} (grpc is not built in)` });
  problems.push(...samplerProblems(value('OTEL_TRACES_SAMPLER'), value('OTEL_TRACES_SAMPLER_ARG')));
  if (problems.length > 0) return { settings: { enabled: false, reason: 'invalid OTEL_* configuration' }, problems };
  return { settings: { enabled: true, defaultServiceName, protocol: protocol as TracesProtocol, tracesUrl }, problems };
}

function samplerProblems(sampler: string | undefined, argument: string | undefined): TelemetryProblem[] {
  if (sampler === undefined) return [];
  if (!(SAMPLERS as readonly string[]).includes(sampler)) return [{ key: 'OTEL_TRACES_SAMPLER', problem: `must be one of: ${SAMPLERS.join(', ')}` }];
  if (!RATIO_SAMPLERS.includes(sampler) || argument === undefined) return [];
  const ratio = Number(argument);
  return Number.isFinite(ratio) && ratio >= 0 && ratio <= 1 ? [] : [{ key: 'OTEL_TRACES_SAMPLER_ARG', problem: 'must be a number from 0 to 1' }];
}

/** As the OTLP exporter specification says: the signal's path is appended to the base endpoint. */
function appendTracesPath(base: string): string {
  return `${base.endsWith('/') ? base : `${base}/`}v1/traces`;
}

function isHttpUrl(candidate: string): boolean {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The endpoint as logs may show it: scheme, host and path, without credentials or query. */
export function describeEndpoint(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(unparsable URL)';
  }
}
