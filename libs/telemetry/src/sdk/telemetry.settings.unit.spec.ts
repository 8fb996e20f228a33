import { describeEndpoint, readTelemetrySettings } from './telemetry.settings';

describe('readTelemetrySettings', () => {
  const read = (env: NodeJS.ProcessEnv): ReturnType<typeof readTelemetrySettings> => readTelemetrySettings(env, 'queue');

  it('is off without an OTLP endpoint, whatever else is set', () => {
    expect(read({})).toEqual({ settings: { enabled: false, reason: 'no OTLP endpoint is configured' }, problems: [] });
    expect(read({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toMatchObject({ settings: { enabled: false }, problems: [] });
  });

  it('is off when OTEL_SDK_DISABLED is true or the traces exporter is none, even with an endpoint', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(read({ ...endpoint, OTEL_SDK_DISABLED: 'TRUE' })).toMatchObject({ settings: { enabled: false, reason: 'OTEL_SDK_DISABLED is true' } });
    expect(read({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toMatchObject({ settings: { enabled: false, reason: 'OTEL_TRACES_EXPORTER is none' } });
    expect(read({ ...endpoint, OTEL_SDK_DISABLED: 'false' })).toMatchObject({ settings: { enabled: true } });
  });

  it('sends to <endpoint>/v1/traces over http/protobuf by default, named after the process', () => {
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).settings).toEqual({
      enabled: true,
      defaultServiceName: 'queue',
      protocol: 'http/protobuf',
      tracesUrl: 'http://collector:4318/v1/traces',
    });
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector/otlp/' }).settings).toMatchObject({ tracesUrl: 'https://collector/otlp/v1/traces' });
  });

  it('takes the traces endpoint and protocol as they are, over the general ones', () => {
    const { settings } = read({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://general:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/custom',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    });
    expect(settings).toMatchObject({ enabled: true, tracesUrl: 'http://traces:4318/custom', protocol: 'http/json' });
  });

  it('lists every bad key at once, naming none of their values', () => {
    const { settings, problems } = read({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'collector-without-scheme',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_TRACES_EXPORTER: 'zipkin',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '2',
    });
    expect(settings.enabled).toBe(false);
    expect(problems.map((problem) => problem.key)).toEqual(['OTEL_TRACES_EXPORTER', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_TRACES_SAMPLER_ARG']);
    expect(JSON.stringify(problems)).not.toMatch(/collector-without-scheme|zipkin/);
    expect(read({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces', OTEL_TRACES_SAMPLER: 'jaeger_remote' }).problems).toEqual([
      { key: 'OTEL_TRACES_SAMPLER', problem: expect.stringContaining('parentbased_always_on') },
    ]);
  });

  it('describes an endpoint for the log without its credentials or query', () => {
    expect(describeEndpoint('https://user:secret@collector:4318/v1/traces?api_key=secret')).toBe('https://collector:4318/v1/traces');
  });
});
