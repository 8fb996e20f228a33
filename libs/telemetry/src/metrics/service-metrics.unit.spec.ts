import { SWITCHYARD_METRICS, SWITCHYARD_METRIC_NAMES, type MetricDefinition } from './metric.catalog';
import { createServiceMetrics, disabledServiceMetrics, type ServiceMetrics } from './service-metrics';

interface Sample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

/** The sample lines of an exposition (this lib's tests cannot use the test kit, which imports it). */
function samplesOf(body: string): Sample[] {
  return body
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_]\w*)="([^"]*)"/g)].map((label) => [label[1]!, label[2]!]));
      return { name: match[1]!, labels, value: match[3] === '+Inf' ? Number.POSITIVE_INFINITY : Number(match[3]) };
    });
}

function valueOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))?.value;
}

function recordingLogger() {
  const lines: Array<{ level: string; event: unknown }> = [];
  const at = (level: string) => (details: object) => lines.push({ level, event: (details as { event?: unknown }).event });
  return { lines, logger: { info: at('info'), warn: at('warn'), error: at('error') } };
}

describe('service metrics', () => {
  describe('on', () => {
    let metrics: ServiceMetrics;
    let log: ReturnType<typeof recordingLogger>;

    beforeEach(async () => {
      log = recordingLogger();
      metrics = await createServiceMetrics({ service: 'queue', logger: log.logger });
    });

    it('reads gauges at each scrape, counts histogram observations into buckets, and labels every series with the service', async () => {
      let queued = 3;
      metrics.gaugeAtScrape(SWITCHYARD_METRICS.queueTasks, () => [
        { labels: { state: 'queued' }, value: queued },
        { labels: { state: 'running' }, value: 1 },
      ]);
      const durations = metrics.histogram(SWITCHYARD_METRICS.taskDuration);
      durations.observe({ outcome: 'completed' }, 42);
      durations.observe({ outcome: 'completed' }, 7);

      const first = await metrics.exposition();
      queued = 5;
      const second = samplesOf((await metrics.exposition()).body);

      expect(first.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
      const samples = samplesOf(first.body);
      expect(valueOf(samples, 'switchyard_queue_tasks', { state: 'queued', service: 'queue' })).toBe(3);
      expect(valueOf(second, 'switchyard_queue_tasks', { state: 'queued' })).toBe(5);
      expect(valueOf(samples, 'switchyard_task_duration_seconds_count', { outcome: 'completed' })).toBe(2);
      expect(valueOf(samples, 'switchyard_task_duration_seconds_sum', { outcome: 'completed' })).toBe(49);
      expect(valueOf(samples, 'switchyard_task_duration_seconds_bucket', { outcome: 'completed', le: '10' })).toBe(1);
      expect(valueOf(samples, 'switchyard_task_duration_seconds_bucket', { outcome: 'completed', le: '60' })).toBe(2);
      expect(samples.filter((sample) => sample.labels['service'] !== 'queue')).toEqual([]);
    });

    it('serves the default process metrics', async () => {
      const names = new Set(samplesOf((await metrics.exposition()).body).map((sample) => sample.name));

      const expected = ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_start_time_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_p99_seconds'];
      expect(expected.filter((name) => !names.has(name))).toEqual([]);
    });

    it('leaves out a gauge whose read fails (NaN without labels), serves the rest, and logs the failure once until it reads again', async () => {
      let failing = true;
      const read = () => (failing ? Promise.reject(new Error('database unreachable')) : Promise.resolve([{ labels: {}, value: 4 }]));
      metrics.gaugeAtScrape(SWITCHYARD_METRICS.outboxPendingMessages, read);
      metrics.gaugeAtScrape(SWITCHYARD_METRICS.queueTasks, () => (failing ? Promise.reject(new Error('database unreachable')) : [{ labels: { state: 'queued' }, value: 2 }]));
      metrics.gaugeAtScrape(SWITCHYARD_METRICS.liveConnections, () => [{ labels: {}, value: 1 }]);

      const down = samplesOf((await metrics.exposition()).body);
      await metrics.exposition();
      failing = false;
      const up = samplesOf((await metrics.exposition()).body);

      expect(valueOf(down, 'switchyard_outbox_pending_messages')).toBeNaN();
      expect(down.filter((sample) => sample.name === 'switchyard_queue_tasks')).toEqual([]);
      expect(valueOf(down, 'switchyard_live_connections')).toBe(1);
      expect(valueOf(up, 'switchyard_outbox_pending_messages')).toBe(4);
      expect(valueOf(up, 'switchyard_queue_tasks', { state: 'queued' })).toBe(2);
      expect(log.lines.filter((line) => line.level === 'warn')).toHaveLength(2);
      expect(log.lines.map((line) => line.event).sort()).toEqual(['metric_read_failed', 'metric_read_failed', 'metric_read_recovered', 'metric_read_recovered']);
    });

    it('registers every metric of the catalog side by side, each as its kind', async () => {
      for (const definition of Object.values(SWITCHYARD_METRICS) as MetricDefinition[]) {
        if (definition.kind === 'gauge') metrics.gaugeAtScrape(definition, () => []);
        else metrics.histogram(definition);
      }
      const types = new Map([...(await metrics.exposition()).body.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((match) => [match[1], match[2]]));

      expect(Object.values(SWITCHYARD_METRICS).map((definition) => [definition.name, types.get(definition.name)])).toEqual(
        Object.values(SWITCHYARD_METRICS).map((definition) => [definition.name, definition.kind]),
      );
    });
  });

  it('off: records nothing, serves nothing', async () => {
    const metrics = disabledServiceMetrics();
    metrics.gaugeAtScrape(SWITCHYARD_METRICS.liveConnections, () => {
      throw new Error('never read');
    });
    metrics.histogram(SWITCHYARD_METRICS.claimLatency).observe({}, 1);

    expect(metrics.enabled).toBe(false);
    await expect(metrics.exposition()).rejects.toThrow(/METRICS_PORT/);
  });
});

describe('the metric catalog', () => {
  const definitions = Object.values(SWITCHYARD_METRICS) as MetricDefinition[];

  it('names every metric switchyard_<what>_<unit> once, histograms in seconds', () => {
    expect(new Set(SWITCHYARD_METRIC_NAMES).size).toBe(definitions.length);
    expect(SWITCHYARD_METRIC_NAMES.filter((name) => !/^switchyard_[a-z][a-z0-9_]*[a-z]$/.test(name))).toEqual([]);
    expect(definitions.filter((definition) => definition.kind === 'histogram' && !definition.name.endsWith('_seconds')).map((definition) => definition.name)).toEqual([]);
    // Counters end in _total; these are gauges and histograms, which must not.
    expect(SWITCHYARD_METRIC_NAMES.filter((name) => name.endsWith('_total'))).toEqual([]);
  });

  it('labels with bounded sets only: no id, name, path or free text', () => {
    const labels = definitions.flatMap((definition) => definition.labelNames);
    expect([...new Set(labels)].sort()).toEqual(['outcome', 'state']);
  });

  it('keeps histogram buckets increasing', () => {
    for (const definition of definitions) {
      if (definition.kind !== 'histogram') continue;
      expect(definition.buckets).toEqual([...definition.buckets].sort((left, right) => left - right));
    }
  });
});
