import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_METRICS } from '@switchyard/service-kit';
import { SWITCHYARD_METRICS, type ServiceMetrics } from '@switchyard/telemetry';
import { TimelineProjectorRunner } from './timeline-projector.runner';

/**
 * The projector's lag in seconds, as `switchyard_projector_lag_seconds` reports it: 0 when no
 * message waits; otherwise the time since JetStream stored the newest message written, which no
 * waiting message is older than (they were stored after it). NaN (unknown) while messages wait
 * and this projector has written none yet.
 */
export function projectorLagSeconds(options: { readonly backlog: number; readonly lastWrittenStoredAt: Date | undefined; readonly now: Date }): number {
  if (options.backlog === 0) return 0;
  if (options.lastWrittenStoredAt === undefined) return Number.NaN;
  return Math.max(0, (options.now.getTime() - options.lastWrittenStoredAt.getTime()) / 1000);
}

/**
 * The transcript's metrics, read at scrape time: the durable consumer's backlog from JetStream
 * (every replica reads the same consumer) and this replica's lag in seconds. Unknown (NaN) while
 * the projector is not running.
 */
@Injectable()
export class ProjectorMetrics {
  constructor(@Inject(SERVICE_METRICS) metrics: ServiceMetrics, runner: TimelineProjectorRunner) {
    metrics.gaugeAtScrape(SWITCHYARD_METRICS.projectorLagMessages, async () => {
      const projector = runner.projector;
      return [{ labels: {}, value: projector ? await projector.pendingMessages() : Number.NaN }];
    });
    metrics.gaugeAtScrape(SWITCHYARD_METRICS.projectorLagSeconds, async () => {
      const projector = runner.projector;
      if (!projector) return [{ labels: {}, value: Number.NaN }];
      const backlog = await projector.pendingMessages();
      return [{ labels: {}, value: projectorLagSeconds({ backlog, lastWrittenStoredAt: projector.stats.lastWrittenStoredAt(), now: new Date() }) }];
    });
  }
}
