import { percentile, summarizeLatencies, summarizeSamples } from './statistics';

describe('bench statistics', () => {
  it('takes nearest-rank percentiles', () => {
    const samples = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentile(samples, 0.5)).toBe(50);
    expect(percentile(samples, 0.99)).toBe(99);
    expect(percentile([7], 0.99)).toBe(7);
  });

  it('summarizes unsorted samples', () => {
    expect(summarizeLatencies([5, 1, 3, 2, 4])).toEqual({ count: 5, p50: 3, p95: 5, p99: 5, max: 5 });
  });

  it('refuses an empty series instead of inventing a figure', () => {
    expect(() => percentile([], 0.5)).toThrow(RangeError);
  });
});

describe('sample summaries', () => {
  it('gives mean and peak, and refuses an empty series', () => {
    expect(summarizeSamples([100, 300, 200])).toEqual({ count: 3, mean: 200, peak: 300 });
    expect(() => summarizeSamples([])).toThrow(RangeError);
  });
});
