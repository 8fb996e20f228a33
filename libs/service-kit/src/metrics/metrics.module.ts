import { Global, Inject, Injectable, Module, type DynamicModule, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { createServiceMetrics, disabledServiceMetrics, startMetricsServer, type RunningMetricsServer, type ServiceMetrics } from '@switchyard/telemetry';
import type { JsonLogger } from '../logging/json-logger';

/** The process's `ServiceMetrics`, for injection: services register their metrics on it. */
export const SERVICE_METRICS = Symbol('SERVICE_METRICS');
const METRICS_OPTIONS = Symbol('METRICS_OPTIONS');

export interface MetricsOptions {
  /** The `service` label of every series. */
  readonly service: string;
  readonly host: string;
  /** METRICS_PORT; undefined: metrics off. */
  readonly port: number | undefined;
  readonly logger: JsonLogger;
}

/**
 * The `/metrics` listener: opened once every provider has registered its metrics (application
 * bootstrap, before the service's own port), closed first at shutdown, so a scrape never reads a
 * database or a connection that is closing.
 */
@Injectable()
export class MetricsEndpoint implements OnApplicationBootstrap, OnModuleDestroy {
  private server: RunningMetricsServer | undefined;

  constructor(
    @Inject(SERVICE_METRICS) private readonly metrics: ServiceMetrics,
    @Inject(METRICS_OPTIONS) private readonly options: MetricsOptions,
  ) {}

  /** Where `GET /metrics` answers; undefined while off. */
  get url(): string | undefined {
    return this.server?.url;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { port, host, logger } = this.options;
    if (port === undefined || !this.metrics.enabled) return;
    this.server = await startMetricsServer({ metrics: this.metrics, host, port, logger });
    logger.info({ event: 'metrics_listening', url: this.server.url }, `metrics at ${this.server.url}`);
  }

  async onModuleDestroy(): Promise<void> {
    await this.server?.close();
    this.server = undefined;
  }
}

/**
 * Metrics for the whole process (global: any module injects `SERVICE_METRICS`). Without a port
 * prom-client is not loaded and nothing listens.
 */
@Global()
@Module({})
export class MetricsModule {
  static forRoot(options: MetricsOptions): DynamicModule {
    const logger = options.logger.child({ component: 'metrics' });
    return {
      module: MetricsModule,
      global: true,
      providers: [
        { provide: METRICS_OPTIONS, useValue: { ...options, logger } },
        {
          provide: SERVICE_METRICS,
          useFactory: (): ServiceMetrics | Promise<ServiceMetrics> => (options.port === undefined ? disabledServiceMetrics() : createServiceMetrics({ service: options.service, logger })),
        },
        MetricsEndpoint,
      ],
      exports: [SERVICE_METRICS, MetricsEndpoint],
    };
  }
}
