/** One series of a Prometheus text exposition: its name, labels and value. */
export interface ScrapedSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Scrape {
  readonly status: number;
  readonly contentType: string | null;
  /** The body as served. */
  readonly text: string;
  readonly samples: readonly ScrapedSample[];
  /** The value of the one series of `name` whose labels include `labels`; undefined when there is none. */
  value(name: string, labels?: Readonly<Record<string, string>>): number | undefined;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of a Prometheus text exposition (comments and blank lines skipped). */
export function parsePrometheusText(text: string): ScrapedSample[] {
  const samples: ScrapedSample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE_LINE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL)].map((label) => [label[1]!, label[2]!.replace(/\\(.)/g, (_escape, character: string) => (character === 'n' ? '\n' : character))]));
    samples.push({ name: match[1]!, labels, value: numberOf(match[3]!) });
  }
  return samples;
}

function numberOf(text: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  return Number(text);
}

/** `GET <metricsUrl>` and its samples, as Prometheus would scrape it. */
export async function scrapeMetrics(metricsUrl: string): Promise<Scrape> {
  const response = await fetch(metricsUrl);
  const text = await response.text();
  const samples = response.ok ? parsePrometheusText(text) : [];
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    samples,
    value: (name, labels = {}) => {
      const matching = samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
      if (matching.length > 1) throw new Error(`${matching.length} series of ${name} match ${JSON.stringify(labels)}`);
      return matching[0]?.value;
    },
  };
}
