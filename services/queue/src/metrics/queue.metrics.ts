import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@switchyard/persistence';
import { SERVICE_METRICS } from '@switchyard/service-kit';
import { SWITCHYARD_METRICS, type HistogramRecorder, type LabelOf, type ServiceMetrics } from '@switchyard/telemetry';
import { countUnfinishedTasksByState } from '../storage/task-depth.query';
import type { TaskTransition } from '../storage/task-transitions';
import { observationsOf } from './task-observations';

/**
 * The queue's metrics: its depth by state, counted at scrape time, and the claim latency and task
 * duration observed from the transitions of every command that committed (see
 * `runIdempotentCommand`'s `onCommitted`), whichever replica committed it.
 */
@Injectable()
export class QueueMetrics {
  private readonly claimLatency: HistogramRecorder<LabelOf<typeof SWITCHYARD_METRICS.claimLatency>>;
  private readonly taskDuration: HistogramRecorder<LabelOf<typeof SWITCHYARD_METRICS.taskDuration>>;

  constructor(@Inject(SERVICE_METRICS) metrics: ServiceMetrics, @Inject(DATA_SOURCE) dataSource: DataSource) {
    metrics.gaugeAtScrape(SWITCHYARD_METRICS.queueTasks, async () =>
      [...(await countUnfinishedTasksByState(dataSource))].map(([state, tasks]) => ({ labels: { state }, value: tasks })),
    );
    this.claimLatency = metrics.histogram(SWITCHYARD_METRICS.claimLatency);
    this.taskDuration = metrics.histogram(SWITCHYARD_METRICS.taskDuration);
  }

  /** For `runIdempotentCommand`: what the committed transitions add to the histograms. */
  readonly observeCommitted = (transitions: readonly TaskTransition[]): void => {
    for (const observation of transitions.flatMap(observationsOf)) {
      if (observation.kind === 'claimed') this.claimLatency.observe({}, observation.latencySeconds);
      else this.taskDuration.observe({ outcome: observation.outcome }, observation.durationSeconds);
    }
  };
}
