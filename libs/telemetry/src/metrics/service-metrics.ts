import type { Gauge, Registry } from 'prom-client';
import type { TelemetryLogger } from '../sdk/start-telemetry';
import type { GaugeDefinition, HistogramDefinition, LabelOf } from './metric.catalog';

/** Label values of one series: every label of the definition, each a value from a bounded set. */
export type MetricLabels<Label extends string> = Readonly<Record<Label, string>>;

/** One value of a gauge read at scrape time. */
export interface GaugeSample<Label extends string> {
  readonly labels: MetricLabels<Label>;
  readonly value: number;
}

export interface HistogramRecorder<Label extends string> {
  observe(labels: MetricLabels<Label>, value: number): void;
}

/** The body of `GET /metrics`. */
export interface MetricsExposition {
  readonly contentType: string;
  readonly body: string;
}

/**
 * A process's metrics. Off (no METRICS_PORT), every method does nothing and prom-client is never
 * loaded: a laptop's daemon pays nothing, as with traces.
 */
export interface ServiceMetrics {
  readonly enabled: boolean;
  /**
   * A gauge whose values `read` returns at each scrape (a count, a backlog). A read that fails is
   * logged once until one succeeds again, and its gauge is left out of that scrape (NaN without
   * labels): the other metrics are still served.
   */
  gaugeAtScrape<Definition extends GaugeDefinition>(
    definition: Definition,
    read: () => readonly GaugeSample<LabelOf<Definition>>[] | Promise<readonly GaugeSample<LabelOf<Definition>>[]>,
  ): void;
  histogram<Definition extends HistogramDefinition>(definition: Definition): HistogramRecorder<LabelOf<Definition>>;
  /** Every metric in the Prometheus text format. */
  exposition(): Promise<MetricsExposition>;
}

const NOTHING_RECORDED: HistogramRecorder<never> = { observe: () => undefined };

/** Metrics off: nothing is registered, recorded or loaded. */
export function disabledServiceMetrics(): ServiceMetrics {
  return {
    enabled: false,
    gaugeAtScrape: () => undefined,
    histogram: () => NOTHING_RECORDED,
    exposition: () => Promise.reject(new Error('metrics are off: METRICS_PORT is not set')),
  };
}

/**
 * Metrics on: a registry of this process's own (several services booted in one test process do
 * not collide), the default process metrics (CPU, memory, event loop, GC, handles), and a
 * `service` label on every series, so one dashboard tells the processes apart.
 */
export async function createServiceMetrics(options: { readonly service: string; readonly logger: TelemetryLogger }): Promise<ServiceMetrics> {
  const prometheus = await import('prom-client');
  const registry: Registry = new prometheus.Registry();
  registry.setDefaultLabels({ service: options.service });
  prometheus.collectDefaultMetrics({ register: registry });
  const failingReads = new Set<string>();

  const readFailed = (name: string, error: unknown): void => {
    if (failingReads.has(name)) return;
    failingReads.add(name);
    options.logger.warn({ event: 'metric_read_failed', metric: name, error: error instanceof Error ? error.message : String(error) }, `${name} could not be read; left out of the scrape until it can`);
  };
  const readRecovered = (name: string): void => {
    if (failingReads.delete(name)) options.logger.info({ event: 'metric_read_recovered', metric: name }, `${name} can be read again`);
  };

  return {
    enabled: true,
    gaugeAtScrape: (definition, read) => {
      const labelNames = [...definition.labelNames];
      new prometheus.Gauge({
        name: definition.name,
        help: definition.help,
        labelNames,
        registers: [registry],
        async collect(this: Gauge) {
          this.reset();
          try {
            for (const sample of await read()) this.set(sample.labels as Record<string, string>, sample.value);
            readRecovered(definition.name);
          } catch (error) {
            // Reset leaves an unlabelled gauge at 0, which would read as "no lag": say "unknown".
            if (labelNames.length === 0) this.set(Number.NaN);
            readFailed(definition.name, error);
          }
        },
      });
    },
    histogram: (definition) => {
      const histogram = new prometheus.Histogram({
        name: definition.name,
        help: definition.help,
        labelNames: [...definition.labelNames],
        buckets: [...definition.buckets],
        registers: [registry],
      });
      return { observe: (labels, value) => histogram.observe(labels as Record<string, string>, value) };
    },
    exposition: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  };
}
