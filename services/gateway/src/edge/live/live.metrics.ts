import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_METRICS } from '@switchyard/service-kit';
import { SWITCHYARD_METRICS, type ServiceMetrics } from '@switchyard/telemetry';
import { LiveServer } from './live.server';

/** `switchyard_live_connections`: this gateway's open live WebSockets, counted at scrape time. */
@Injectable()
export class LiveMetrics {
  constructor(@Inject(SERVICE_METRICS) metrics: ServiceMetrics, live: LiveServer) {
    metrics.gaugeAtScrape(SWITCHYARD_METRICS.liveConnections, () => [{ labels: {}, value: live.openConnections }]);
  }
}
