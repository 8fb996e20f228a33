import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_METRICS } from '@switchyard/service-kit';
import { SWITCHYARD_METRICS, type ServiceMetrics } from '@switchyard/telemetry';
import { ClaimLoop } from './run-loop/claim-loop';
import { SlotTracker } from './runtimes/slot-tracker';

/**
 * The daemon's metrics, read at scrape time: its slots (busy, total) and its outbox's backlog
 * (unknown, NaN, until the outbox opened at boot). Served only with METRICS_PORT: on a laptop
 * nothing listens and prom-client is not loaded.
 */
@Injectable()
export class DaemonMetrics {
  constructor(@Inject(SERVICE_METRICS) metrics: ServiceMetrics, slots: SlotTracker, claimLoop: ClaimLoop) {
    metrics.gaugeAtScrape(SWITCHYARD_METRICS.daemonSlots, () => [
      { labels: { state: 'busy' }, value: slots.busySlots },
      { labels: { state: 'total' }, value: slots.totalSlots },
    ]);
    metrics.gaugeAtScrape(SWITCHYARD_METRICS.outboxPendingMessages, () => [{ labels: {}, value: claimLoop.pendingOutboxMessages() ?? Number.NaN }]);
  }
}
